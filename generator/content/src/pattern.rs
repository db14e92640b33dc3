//! Regular expressions written in the code.

/// A regular expression written in the code: a constant, so a mistake in it is the code's
/// own (every one is exercised by the tests), never an input's.
pub fn constant_regex(pattern: &'static str) -> regex::Regex {
    #[allow(
        clippy::expect_used,
        reason = "a constant pattern, exercised by the tests"
    )]
    regex::Regex::new(pattern).expect("a valid constant regular expression")
}
