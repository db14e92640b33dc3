//! Claims against qualifications (STYLE.md, 'Ostrożność kliniczna'): a sentence that says a
//! member of the team conducts therapy says, in the same sentence, that they are still in
//! psychotherapy training, unless their profile lists a completed psychotherapy training.

use regex::Regex;
use std::sync::OnceLock;

use crate::model::TeamMeta;
use crate::problem::StyleProblem;

/// A member of the team as the check needs them: the name, the stem of the surname (which
/// finds every case: "Wiśniewsk" in "Wiśniewskiej"), and whether their texts need the trainee
/// qualifier.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Member {
    pub name: String,
    stem: Option<String>,
    pub trainee: bool,
}

impl Member {
    pub fn of(meta: &TeamMeta) -> Self {
        let surname = meta.name.split_whitespace().last().unwrap_or_default();
        let mut chars: Vec<char> = surname.chars().collect();
        chars.pop();
        let stem = (chars.len() >= 4).then(|| chars.into_iter().collect());
        Member {
            name: meta.name.clone(),
            stem,
            trainee: !meta
                .qualifications
                .iter()
                .any(|q| completed_psychotherapy(q)),
        }
    }

    fn named_in(&self, sentence: &str) -> bool {
        sentence.contains(&self.name) || self.stem.as_deref().is_some_and(|s| sentence.contains(s))
    }
}

/// A qualification of a finished psychotherapy training ("… psychoterapii … – ukończone").
fn completed_psychotherapy(qualification: &str) -> bool {
    let q = qualification.to_lowercase();
    q.contains("psychoterapi") && q.contains("ukończon")
}

fn regex(cell: &'static OnceLock<Regex>, pattern: &'static str) -> &'static Regex {
    cell.get_or_init(|| crate::pattern::constant_regex(pattern))
}

/// The sentences of `text` with their byte offsets: a sentence ends at '.', '!' or '?' before
/// a space, and at the end of a line (a list item, a heading).
fn sentences(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|(_, n)| *n);
        let end = match c {
            '\n' => Some(at),
            '.' | '!' | '?' if next.is_none_or(char::is_whitespace) => Some(at + 1),
            _ => None,
        };
        if let Some(end) = end {
            out.push((start, &text[start..end]));
            start = end;
        }
    }
    out.push((start, &text[start..]));
    out
}

/// Every sentence of `text` that says a trainee of `team` conducts therapy without the
/// trainee qualifier, by its offset. `own`: the member whose profile `text` is (named in
/// every sentence of it).
pub(crate) fn unqualified_claims(
    text: &str,
    team: &[Member],
    own: Option<&Member>,
) -> Vec<(usize, StyleProblem)> {
    static CONDUCTS: OnceLock<Regex> = OnceLock::new();
    static THERAPY: OnceLock<Regex> = OnceLock::new();
    static QUALIFIER: OnceLock<Regex> = OnceLock::new();
    let conducts = regex(&CONDUCTS, r"(?i)\bprowadz");
    let therapy = regex(&THERAPY, r"(?i)(?:\b|psycho)terapi");
    let qualifier = regex(&QUALIFIER, r"(?i)\bw\s+trakcie\s+(?:\S+\s+){0,3}?szkoleni");
    let trainees: Vec<&Member> = team.iter().filter(|m| m.trainee).collect();
    if trainees.is_empty() || !conducts.is_match(text) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (offset, sentence) in sentences(text) {
        if !conducts.is_match(sentence)
            || !therapy.is_match(sentence)
            || qualifier.is_match(sentence)
        {
            continue;
        }
        let named = trainees
            .iter()
            .find(|m| m.named_in(sentence) || own.is_some_and(|o| o == **m));
        if let Some(member) = named {
            let lead = sentence.len() - sentence.trim_start().len();
            let name = member.name.clone();
            out.push((offset + lead, StyleProblem::TraineeQualifier { name }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(name: &str, qualifications: &[&str]) -> Member {
        let meta: TeamMeta = serde_json::from_value(serde_json::json!({
            "name": name, "role": "Psycholożka", "photo": "a.svg", "photo_alt": "Portret",
            "qualifications": qualifications, "order": 1
        }))
        .expect("meta");
        Member::of(&meta)
    }

    fn team() -> Vec<Member> {
        vec![
            member(
                "Magdalena Wiśniewska",
                &["Szkolenie w psychoterapii poznawczo-behawioralnej – w trakcie (od 2023)"],
            ),
            member(
                "Anna Nowak",
                &["Szkolenie w psychoterapii poznawczo-behawioralnej – ukończone (2019), certyfikat nr 123"],
            ),
        ]
    }

    #[test]
    fn a_trainee_conducting_therapy_needs_the_qualifier_in_the_same_sentence() {
        let team = team();
        let found = unqualified_claims(
            "Wstęp.\n\nTerapię CBT prowadzi Magdalena Wiśniewska. Dalej.",
            &team,
            None,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "Wstęp.\n\n".len());
        assert!(unqualified_claims(
            "Terapię CBT prowadzi Magdalena Wiśniewska, psycholożka w trakcie czteroletniego szkolenia w psychoterapii.",
            &team,
            None
        )
        .is_empty());
        assert_eq!(
            unqualified_claims(
                "Psychoterapię prowadzi u nas Magdaleny Wiśniewskiej zespół.",
                &team,
                None
            )
            .len(),
            1,
            "every case of the surname"
        );
    }

    #[test]
    fn other_claims_other_people_and_completed_trainings_pass() {
        let team = team();
        for text in [
            "Diagnozę ADHD prowadzi Magdalena Wiśniewska.",
            "Terapię prowadzi Anna Nowak.",
            "Terapia pomaga. Magdalena Wiśniewska prowadzi konsultacje.",
        ] {
            assert!(unqualified_claims(text, &team, None).is_empty(), "{text}");
        }
    }

    #[test]
    fn a_profile_names_its_own_member_in_every_sentence() {
        let team = team();
        let found = unqualified_claims(
            "Prowadzi terapię indywidualną dorosłych.",
            &team,
            Some(&team[0]),
        );
        assert_eq!(found.len(), 1);
        assert!(unqualified_claims("Prowadzi terapię.", &team, Some(&team[1])).is_empty());
    }
}
