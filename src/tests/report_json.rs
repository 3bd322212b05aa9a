//! A written report read back: the JSON and JSON Lines of a computed
//! [`Report`](crate::report::Report) give the same report again (the page
//! drawn from either is checked end to end in `tests/report_html.rs`).

/// Two puzzles, small sample counts.
fn two_puzzles() -> Vec<crate::Puzzle> {
    crate::grid::Puzzle::examples()
        .into_iter()
        .take(2)
        .collect()
}

#[test]
fn a_report_reads_back_from_json_unchanged() {
    use crate::eval::Reference;
    use crate::report::{Report, ReportOptions, ReportRequest, ReportSubject, compute_report};
    let reference = Reference::embedded().unwrap();
    let report = compute_report(
        ReportRequest {
            title: "two puzzles".into(),
            source: "test".into(),
            subject: ReportSubject::Puzzles(two_puzzles()),
            label: None,
            ordinal: None,
            reference: &reference,
            reference_name: "embedded".into(),
            options: ReportOptions {
                samples: 60,
                sweep: vec![0, 10, 20, 30, 40],
                sweep_samples: 30,
                runs: Some(2),
                ..ReportOptions::default()
            },
        },
        || {},
    )
    .unwrap();
    assert_eq!(report.puzzles.len(), 2);
    for text in [
        serde_json::to_string_pretty(&report).unwrap() + "\n",
        crate::report::jsonl_line(&report).unwrap() + "\n",
    ] {
        let back = Report::from_json(&text).unwrap().expect("a report");
        assert!(back == report, "the report reads back unchanged");
    }
    // Puzzles and `analyze` rows are no report.
    assert_eq!(Report::from_json(&report.puzzles[0].puzzle).unwrap(), None);
    let row = "{\"line\":1,\"puzzle\":\"1.\",\"hsolve\":2}\n{\"line\":2}\n";
    assert_eq!(Report::from_json(row).unwrap(), None);
    assert_eq!(
        Report::from_json(&row[..row.find('\n').unwrap()]).unwrap(),
        None
    );
    // A report's fields with values of the wrong kind are an error.
    let broken = "{\"title\":1,\"reference\":\"\",\"puzzles\":[],\"dataset\":null,\"options\":{}}";
    assert!(Report::from_json(broken).is_err());
}

#[test]
fn the_data_set_counts_its_saturated_rows_in_csv_and_json() {
    use crate::eval::{ResultsTable, TableFormat};
    use crate::report::{SaturationShare, dataset_report};
    // Four relaxed rows, one not relaxed; CSV writes the flag as words,
    // JSON as booleans (read as 0 and 1).
    let csv = "puzzle,mean_fixed,saw_nothing\na,3,true\nb,10,false\nc,0,true\nd,1,true\ne,7,\n";
    let jsonl = "{\"puzzle\":\"a\",\"mean_fixed\":3,\"saw_nothing\":true}\n\
                 {\"puzzle\":\"b\",\"mean_fixed\":10,\"saw_nothing\":false}\n\
                 {\"puzzle\":\"c\",\"mean_fixed\":0,\"saw_nothing\":true}\n\
                 {\"puzzle\":\"d\",\"mean_fixed\":1,\"saw_nothing\":true}\n\
                 {\"puzzle\":\"e\",\"mean_fixed\":7,\"saw_nothing\":null}\n";
    let want = SaturationShare {
        saw_nothing: 3,
        relaxed: 4,
    };
    for (content, format) in [
        (csv, TableFormat::Delimited(',')),
        (jsonl, TableFormat::Jsonl),
    ] {
        let table = ResultsTable::parse(content, format).unwrap();
        let d = dataset_report(&table, "rows", None, None).unwrap();
        assert_eq!(d.saturation, Some(want), "{format:?}");
        assert_eq!(d.saturation.unwrap().share(), 0.75);
    }
    // Rows without relaxation carry no share.
    let table =
        ResultsTable::parse("puzzle,x\na,1\nb,2\nc,5\n", TableFormat::Delimited(',')).unwrap();
    assert_eq!(
        dataset_report(&table, "rows", None, None)
            .unwrap()
            .saturation,
        None
    );
}
