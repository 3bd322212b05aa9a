//! The library's option enums as command-line values: each variant's name
//! (the one its `Display` and serde use), its aliases and its line of help
//! in `--help`. The library derives no clap trait; [`Choice`] is the
//! command line's view of its types, and [`parser`] reads an argument into
//! the library's type itself.

use clap::ValueEnum;
use clap::builder::{EnumValueParser, PossibleValue, TypedValueParser};
use sudolab::{Alphabet, Encoding, Format, Level, Method, Preset, Symmetry, Verification};

/// A library enum as a command-line value: clap's `ValueEnum` for the
/// types this file lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice<T>(pub T);

/// The parser of a `--flag VALUE` whose value is one of `T`'s variants,
/// by name or alias, with their help in `--help`.
pub fn parser<T>() -> impl TypedValueParser<Value = T>
where
    T: Clone + Send + Sync + 'static,
    Choice<T>: ValueEnum,
{
    EnumValueParser::<Choice<T>>::new().map(|c| c.0)
}

/// The command-line name of `value`.
pub fn name<T>(value: T) -> Option<String>
where
    Choice<T>: ValueEnum,
{
    Choice(value)
        .to_possible_value()
        .map(|v| v.get_name().to_string())
}

/// `impl ValueEnum for Choice<TYPE>` from one line per variant:
/// `Variant => "name" ["alias", …]: "help"`.
macro_rules! values {
    ($ty:ident { $($variant:ident => $name:literal $([$($alias:literal),+])? : $help:literal;)+ }) => {
        impl ValueEnum for Choice<$ty> {
            fn value_variants<'a>() -> &'a [Self] {
                &[$(Choice($ty::$variant)),+]
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(match self.0 {
                    $($ty::$variant => PossibleValue::new($name)$($(.alias($alias))+)?.help($help),)+
                })
            }
        }
    };
}

values!(Encoding {
    Max => "max" ["maximal"]: "The maximal encoding (Patti's \"maximum encoding\")";
    Min => "min" ["minimal"]: "The candidate-based minimal encoding (Patti's \"minimum encoding\")";
    LoMin => "lo-min": "Lynce & Ouaknine's \"minimal\" encoding: cell ALO + unit AMO + givens";
});

values!(Format {
    Text => "text": "A table or report for people to read";
    Json => "json": "One JSON document (an array of rows, or the command's report object)";
    Jsonl => "jsonl": "JSON Lines: one JSON object per row";
    Csv => "csv": "Comma-separated values with a header; nested fields joined with `.`";
});

values!(Preset {
    PattiNishio => "patti-nishio" ["patti", "nishio"]: "Nishio human cycles: 3.48 / 6.52, higher is harder";
    PattiShort => "patti-short" ["short", "short-clauses"]: "Short-clause percentage: 22.6 / 17.6, lower is harder";
});

values!(Method {
    Minimal => "minimal": "Random solution grid, then minimal removal checked by the bitset search";
    Fletcher => "fletcher": "Fletcher et al. Algorithm 2 (Dancing Links), scored by the oracle model";
    Xu => "xu": "Xu & Xu §2.2 (no brute force), rated by technique weights";
    Pseudo => "pseudo": "Chang et al.'s pseudo-generator: mutants of a source puzzle with about its hsolve difficulty";
    Chang => "chang": "Chang et al.'s standard generator: minimal puzzles rated by hsolve, retried until the requested quartile level (level1..level4) comes out";
});

values!(Symmetry {
    None => "none": "No symmetry";
    Rot180 => "rot180": "Half-turn rotation about the centre";
    Rot90 => "rot90": "Quarter-turn rotation about the centre";
    Diagonal => "diagonal": "Reflection in the main diagonal";
    Mirror => "mirror": "Reflection in the vertical centre line";
});

values!(Level {
    Cinch => "cinch": "Oracle level (Fletcher): singles suffice";
    Confusing => "confusing": "Oracle level (Fletcher)";
    Challenging => "challenging": "Oracle level (Fletcher) or weights level (Xu)";
    Crazy => "crazy": "Oracle level (Fletcher)";
    Easy => "easy": "Weights level (Xu)";
    Intermediate => "intermediate": "Weights level (Xu)";
    Hard => "hard": "Weights level (Xu)";
    Level1 => "level1": "Chang level 1: hsolve below the first quartile of the reference set";
    Level2 => "level2": "Chang level 2: hsolve from the first quartile to below the median";
    Level3 => "level3": "Chang level 3: hsolve from the median to below the third quartile";
    Level4 => "level4": "Chang level 4: hsolve at or above the third quartile";
});

values!(Alphabet {
    FromOne => "1-g" ["standard"]: "`1`–`9` then `A`–`Z` are the digits 1, 2, …; `0`, `.` and `_` are blanks (16×16: `1`–`9`, `A`–`G`)";
    FromZero => "0-f" ["0f"]: "`0`–`9` then `A`–`Z` are the digits 1, 2, …; `.` and `_` are blanks (the common 16×16 convention `0`–`F`)";
});

values!(Verification {
    Certificate => "certificate": "the bitset search hands over its solutions and SAT proves its count and fixed cells from them; other engines are re-analyzed as with resolve";
    Resolve => "resolve": "the sample is re-analyzed from scratch by the engine's checker (SAT for the search engines) and the answers compared";
});

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Display;

    /// The Python binding and the results files name these values by their
    /// displayed names, the command line by clap's: the two agree.
    fn agree<T: Display>()
    where
        Choice<T>: ValueEnum,
    {
        for v in Choice::<T>::value_variants() {
            let name = v.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(v.0.to_string(), name);
        }
    }

    fn variants<T: Copy>() -> Vec<T>
    where
        Choice<T>: ValueEnum,
    {
        Choice::<T>::value_variants().iter().map(|c| c.0).collect()
    }

    #[test]
    fn displayed_names_are_the_command_line_names() {
        agree::<Encoding>();
        agree::<Format>();
        agree::<Method>();
        agree::<Symmetry>();
        agree::<Level>();
        assert_eq!(variants::<Method>(), Method::ALL);
        assert_eq!(variants::<Symmetry>(), Symmetry::ALL);
        assert_eq!(variants::<Level>(), Level::ALL);
    }
}
