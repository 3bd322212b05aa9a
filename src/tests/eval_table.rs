//! Reading results files and picking labels.

use crate::eval::label::{LabelError, label_scores, label_texts};
use crate::eval::{LabelSpec, Ordinal, ResultsTable, TableError, TableFormat, Value};
use std::path::Path;

#[test]
fn jsonl_with_nesting_booleans_and_missing_keys() {
    let text = r#"{"puzzle": "p1", "label": "Easy", "givens": 30, "unique": true, "se": {"er": 2.5}, "hist": [1, 2]}

{"puzzle": "p2", "label": "Hard", "givens": 24, "unique": false, "extra": null}
{"puzzle": "p3", "givens": 26.5, "se": {"er": 7}}
"#;
    let t = ResultsTable::parse(text, TableFormat::Jsonl).unwrap();
    assert_eq!(
        t.columns,
        vec!["puzzle", "label", "givens", "unique", "se.er", "extra"]
    );
    assert_eq!(t.len(), 3);
    assert_eq!(t.lines, vec![1, 3, 4]);
    assert_eq!(
        t.numeric("givens").unwrap(),
        vec![Some(30.0), Some(24.0), Some(26.5)]
    );
    assert_eq!(
        t.numeric("unique").unwrap(),
        vec![Some(1.0), Some(0.0), None]
    );
    assert_eq!(
        t.numeric("se.er").unwrap(),
        vec![Some(2.5), None, Some(7.0)]
    );
    assert_eq!(
        t.text("label").unwrap(),
        vec![Some("Easy".into()), Some("Hard".into()), None]
    );
    assert_eq!(t.numeric_columns(), vec!["givens", "unique", "se.er"]);
    assert!(!t.is_numeric("puzzle"));
    assert!(!t.is_numeric("extra"), "an all-null column is not numeric");
}

#[test]
fn jsonl_errors_name_the_line() {
    let bad = "{\"a\": 1}\n{\"a\": 2\n";
    let err = ResultsTable::parse(bad, TableFormat::Jsonl).unwrap_err();
    assert!(matches!(err, TableError::Line { line: 2, .. }), "{err}");
    assert!(err.to_string().starts_with("line 2: invalid JSON"));
    let not_object = "{\"a\": 1}\n[1, 2]\n";
    let err = ResultsTable::parse(not_object, TableFormat::Jsonl).unwrap_err();
    assert!(err.to_string().contains("line 2: expected a JSON object"));
    assert!(matches!(
        ResultsTable::parse("\n\n", TableFormat::Jsonl),
        Err(TableError::Empty)
    ));
}

#[test]
fn tsv_with_hash_header_and_missing_values() {
    let text = "#puzzle\tlevel\tlevel_rank\tscore\n\
                ..1\tEasy\t1\t2.5\n\
                ..2\tHard\t3\tNA\n\
                \n\
                ..3\tMedium\t2\t\n";
    let t = ResultsTable::parse(text, TableFormat::detect(None, text)).unwrap();
    assert_eq!(t.columns, vec!["puzzle", "level", "level_rank", "score"]);
    assert_eq!(t.lines, vec![2, 3, 5]);
    assert_eq!(t.numeric("score").unwrap(), vec![Some(2.5), None, None]);
    assert_eq!(t.numeric_columns(), vec!["level_rank", "score"]);
    assert_eq!(t.rows[0][1], Value::Text("Easy".into()));
}

#[test]
fn csv_with_quotes_and_field_count_errors() {
    let text = "puzzle,label,x\n\"a,b\",\"say \"\"hi\"\"\",1\nq,plain,2\n";
    let t = ResultsTable::parse(text, TableFormat::detect(None, text)).unwrap();
    assert_eq!(t.text("puzzle").unwrap()[0].as_deref(), Some("a,b"));
    assert_eq!(t.text("label").unwrap()[0].as_deref(), Some("say \"hi\""));
    assert_eq!(t.numeric("x").unwrap(), vec![Some(1.0), Some(2.0)]);

    let short = "a,b,c\n1,2,3\n4,5\n";
    let err = ResultsTable::parse(short, TableFormat::Delimited(',')).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 3: expected 3 fields as in the header, found 2"
    );
    let open = "a,b\n\"1,2\n";
    let err = ResultsTable::parse(open, TableFormat::Delimited(',')).unwrap_err();
    assert_eq!(err.to_string(), "line 2: unterminated quoted field");
    let dup = "a,b,a\n1,2,3\n";
    assert!(matches!(
        ResultsTable::parse(dup, TableFormat::Delimited(',')),
        Err(TableError::DuplicateColumn { .. })
    ));
}

#[test]
fn format_detection() {
    fn p(s: &str) -> Option<&Path> {
        Some(Path::new(s))
    }
    assert_eq!(TableFormat::detect(p("r.jsonl"), ""), TableFormat::Jsonl);
    assert_eq!(
        TableFormat::detect(p("r.TSV"), "a,b"),
        TableFormat::Delimited('\t')
    );
    assert_eq!(
        TableFormat::detect(p("r.csv"), "a\tb"),
        TableFormat::Delimited(',')
    );
    assert_eq!(
        TableFormat::detect(p("r.out"), "\n {\"a\":1}"),
        TableFormat::Jsonl
    );
    assert_eq!(
        TableFormat::detect(None, "#a\tb\n"),
        TableFormat::Delimited('\t')
    );
    assert_eq!(
        TableFormat::detect(None, "a,b\n"),
        TableFormat::Delimited(',')
    );
}

#[test]
fn unknown_column_lists_the_columns() {
    let t = ResultsTable::parse("a,b\n1,2\n", TableFormat::Delimited(',')).unwrap();
    let err = t.numeric("c").unwrap_err();
    assert_eq!(err.to_string(), "no column \"c\"; the table has: a, b");
}

fn labelled() -> ResultsTable {
    let text = r#"{"puzzle": "p1", "label": "Sudoku.org.uk\tTough\t3", "m": 1}
{"puzzle": "p2", "label": "Sudoku.org.uk\tGentle\t1", "m": 2}
{"puzzle": "p3", "label": "Sudoku.org.uk", "m": 3}
{"puzzle": "p4", "m": 4}
"#;
    ResultsTable::parse(text, TableFormat::Jsonl).unwrap()
}

#[test]
fn label_field_of_free_text() {
    let t = labelled();
    let spec = LabelSpec::parse("label:3").unwrap();
    assert_eq!((spec.column.as_str(), spec.field), ("label", Some(3)));
    assert_eq!(
        spec.values(&t).unwrap(),
        vec![
            Some(Value::Number(3.0)),
            Some(Value::Number(1.0)),
            None,
            None
        ]
    );
    let level = LabelSpec::parse("label:2").unwrap();
    assert_eq!(
        label_texts(&t, &level).unwrap(),
        vec![Some("Tough".into()), Some("Gentle".into()), None, None]
    );
    assert_eq!(
        label_scores(&t, &spec, None).unwrap(),
        vec![Some(3.0), Some(1.0), None, None]
    );
    // Text labels need an order; the error names the line and the fix.
    let err = label_scores(&t, &level, None).unwrap_err();
    assert!(matches!(err, LabelError::NeedsOrdinal { line: 1, .. }));
    assert!(err.to_string().contains("--ordinal"));
    let order = Ordinal::parse("gentle, moderate, tough, diabolical").unwrap();
    assert_eq!(
        label_scores(&t, &level, Some(&order)).unwrap(),
        vec![Some(3.0), Some(1.0), None, None]
    );
    let short = Ordinal::parse("Gentle,Moderate").unwrap();
    let err = label_scores(&t, &level, Some(&short)).unwrap_err();
    assert!(
        matches!(&err, LabelError::NotInOrder { line: 1, value, .. } if value == "Tough"),
        "{err}"
    );
}

#[test]
fn label_spec_parsing() {
    assert_eq!(
        LabelSpec::parse("level_rank").unwrap(),
        LabelSpec::column("level_rank")
    );
    assert!(matches!(
        LabelSpec::parse("label:0"),
        Err(LabelError::BadField { .. })
    ));
    assert!(matches!(LabelSpec::parse(" "), Err(LabelError::EmptySpec)));
    // Not a number after ':': the whole text is a column name.
    assert_eq!(LabelSpec::parse("a:b").unwrap().column, "a:b");
    // A column literally named "x:2" wins over field 2 of column x.
    let t = ResultsTable::parse("x,x:2\na b,7\n", TableFormat::Delimited(',')).unwrap();
    let spec = LabelSpec::parse("x:2").unwrap();
    assert_eq!(spec.values(&t).unwrap(), vec![Some(Value::Number(7.0))]);
    assert!(matches!(
        Ordinal::parse("Easy"),
        Err(LabelError::OrdinalTooShort { .. })
    ));
    assert!(matches!(
        Ordinal::parse("Easy,Hard,easy"),
        Err(LabelError::OrdinalDuplicate { .. })
    ));
    assert!(matches!(
        label_scores(&labelled(), &LabelSpec::column("nope"), None),
        Err(LabelError::Table(TableError::UnknownColumn { .. }))
    ));
}
