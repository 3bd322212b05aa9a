//! The removed edges a user gives `count --removed`, `backbone --removed`
//! and the other engine commands: a JSON list of cell pairs, one line of
//! `relax --emit-samples`, or one pair per text line; read into the edges a
//! [`sudolab::RelaxedInstance`] removes.

/// Removed edges as the user gave them, with what an `--emit-samples`
/// line says of their origin.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct RemovedEdges {
    /// The edges, as 0-based row-major cell index pairs.
    pub edges: Vec<(usize, usize)>,
    /// The puzzle they were sampled for (an `--emit-samples` line).
    pub puzzle: Option<String>,
    /// The sample's number (an `--emit-samples` line).
    pub sample: Option<u64>,
}

/// Why a list of removed edges could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RemovedEdgesError {
    /// The text starts like JSON but is not.
    #[error("not valid JSON: {0}")]
    Json(String),
    /// JSON that is neither a list of pairs nor a sample object.
    #[error("expected a list of [a, b] pairs, or one --emit-samples line with \"removed\"")]
    NotAList,
    /// An element of the JSON list that is not a pair of cell indices.
    #[error("edge {0}: expected a pair [a, b] of cell indices")]
    BadPair(usize),
    /// A text line that is not two cell indices.
    #[error("line {line}: expected two cell indices, found {text:?}")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The line's text.
        text: String,
    },
    /// Several `--emit-samples` lines where one instance is analyzed.
    #[error("{0} sample lines given: pick one (e.g. `sed -n 4p samples.jsonl`)")]
    SeveralSamples(usize),
}

/// A removed-edges JSON document: a list of pairs, or one line of `relax
/// --emit-samples` (its `removed` list, `puzzle` and `sample`).
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum EdgesJson {
    List(Vec<EdgeJson>),
    Sample {
        removed: Vec<EdgeJson>,
        puzzle: Option<String>,
        sample: Option<u64>,
    },
    Other(serde::de::IgnoredAny),
}

/// One element of the list: a pair of cells, or anything else (an error
/// naming its position).
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum EdgeJson {
    Pair(u64, u64),
    Other(serde::de::IgnoredAny),
}

/// Parses a list of removed edges: a JSON array of `[a, b]` pairs, one JSON
/// object with a `removed` field (one line of `relax --emit-samples`, whose
/// `puzzle` and `sample` are kept), or text with one pair per line (`a b`,
/// `a,b` or `a-b`; `#` comments). Cells are 0-based row-major indices.
pub(crate) fn parse_removed(text: &str) -> Result<RemovedEdges, RemovedEdgesError> {
    let t = text.trim();
    if t.starts_with('{') {
        let lines = t.lines().filter(|l| !l.trim().is_empty()).count();
        if lines > 1 {
            return Err(RemovedEdgesError::SeveralSamples(lines));
        }
    }
    if t.starts_with('[') || t.starts_with('{') {
        let doc: EdgesJson =
            serde_json::from_str(t).map_err(|e| RemovedEdgesError::Json(e.to_string()))?;
        let (items, puzzle, sample) = match doc {
            EdgesJson::List(items) => (items, None, None),
            EdgesJson::Sample {
                removed,
                puzzle,
                sample,
            } => (removed, puzzle, sample),
            EdgesJson::Other(_) => return Err(RemovedEdgesError::NotAList),
        };
        let edges = items
            .into_iter()
            .enumerate()
            .map(|(i, e)| match e {
                EdgeJson::Pair(a, b) => Ok((a as usize, b as usize)),
                EdgeJson::Other(_) => Err(RemovedEdgesError::BadPair(i + 1)),
            })
            .collect::<Result<_, _>>()?;
        return Ok(RemovedEdges {
            edges,
            puzzle,
            sample,
        });
    }
    let mut out = RemovedEdges::default();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let nums: Vec<&str> = l
            .split(|c: char| c.is_whitespace() || c == ',' || c == '-')
            .filter(|s| !s.is_empty())
            .collect();
        let pair = match nums.as_slice() {
            [a, b] => a.parse().ok().zip(b.parse().ok()),
            _ => None,
        };
        let Some(pair) = pair else {
            return Err(RemovedEdgesError::BadLine {
                line: i + 1,
                text: l.to_string(),
            });
        };
        out.edges.push(pair);
    }
    Ok(out)
}

#[cfg(test)]
mod parse_tests {
    use super::parse_removed;

    #[test]
    fn removed_edge_formats() {
        let want = vec![(0, 1), (3, 12)];
        assert_eq!(parse_removed("[[0,1],[3,12]]").unwrap().edges, want);
        assert_eq!(
            parse_removed("[\n  [0, 1],\n  [3, 12]\n]\n").unwrap().edges,
            want
        );
        let sample = parse_removed(
            "{\"line\":2,\"puzzle\":\"1.\",\"k\":2,\"sample\":7,\"removed\":[[0,1],[3,12]]}\n",
        )
        .unwrap();
        assert_eq!(sample.edges, want);
        assert_eq!(sample.puzzle.as_deref(), Some("1."));
        assert_eq!(sample.sample, Some(7));
        assert_eq!(parse_removed("# edges\n0 1\n3-12\n").unwrap().edges, want);
        assert_eq!(
            parse_removed("0 1\n3 x\n").unwrap_err().to_string(),
            "line 2: expected two cell indices, found \"3 x\""
        );
        assert_eq!(
            parse_removed("[[0]]"),
            Err(super::RemovedEdgesError::BadPair(1))
        );
        // Extra sample lines are refused, not ignored.
        assert_eq!(
            parse_removed("{\"removed\":[[0,1]]}\n{\"removed\":[[0,2]]}\n"),
            Err(super::RemovedEdgesError::SeveralSamples(2))
        );
    }
}
