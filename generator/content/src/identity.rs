//! The practice's registry numbers, NIP and REGON, and their check digits: one rule for
//! `make check`, the panel's save and, through `schema.ts` (`RULES`), the panel's form.

use serde::Serialize;

/// NIP: ten digits; the tenth is the weighted sum of the first nine mod 11 (never 10).
pub const NIP_WEIGHTS: [u32; 9] = [6, 5, 7, 2, 3, 4, 5, 6, 7];
/// REGON of nine digits: the ninth is the weighted sum mod 11, 10 written as 0.
pub const REGON9_WEIGHTS: [u32; 8] = [8, 9, 2, 3, 4, 5, 6, 7];
/// REGON of fourteen digits (a local unit): the same with these weights.
pub const REGON14_WEIGHTS: [u32; 13] = [2, 4, 8, 5, 0, 9, 7, 3, 6, 1, 2, 4, 8];

/// One number's rule as the form checks it: the digits it may have, the weights of each
/// length, whether a remainder of 10 is written 0, and what is said when it is wrong.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NumberRule {
    pub weights: &'static [&'static [u32]],
    pub ten_is_zero: bool,
    pub length_message: &'static str,
    pub checksum_message: &'static str,
}

/// The rules of both numbers.
#[derive(Debug, Clone, Serialize)]
pub struct Rules {
    pub nip: NumberRule,
    pub regon: NumberRule,
}

pub const RULES: Rules = Rules {
    nip: NumberRule {
        weights: &[&NIP_WEIGHTS],
        ten_is_zero: false,
        length_message: "NIP ma 10 cyfr (kreski i spacje można pominąć).",
        checksum_message:
            "Ten NIP ma błędną cyfrę kontrolną: sprawdź, czy nie ma literówki (wpis w CEIDG).",
    },
    regon: NumberRule {
        weights: &[&REGON9_WEIGHTS, &REGON14_WEIGHTS],
        ten_is_zero: true,
        length_message: "REGON ma 9 albo 14 cyfr.",
        checksum_message:
            "Ten REGON ma błędną cyfrę kontrolną: sprawdź, czy nie ma literówki (wpis w CEIDG).",
    },
};

impl NumberRule {
    /// What is wrong with `number`, in Polish; `None` when it is right.
    pub fn problem(&self, number: &str) -> Option<&'static str> {
        let digits: Option<Vec<u32>> = number
            .chars()
            .filter(|c| *c != '-' && *c != ' ')
            .map(|c| c.to_digit(10))
            .collect();
        let Some(digits) = digits else {
            return Some(self.length_message);
        };
        let Some(weights) = self.weights.iter().find(|w| w.len() + 1 == digits.len()) else {
            return Some(self.length_message);
        };
        let sum: u32 = digits.iter().zip(weights.iter()).map(|(d, w)| d * w).sum();
        let check = match sum % 11 {
            10 if self.ten_is_zero => 0,
            rest => rest,
        };
        (digits.last() != Some(&check)).then_some(self.checksum_message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nip_check_digits() {
        assert_eq!(RULES.nip.problem("1234563218"), None);
        assert_eq!(RULES.nip.problem("123-456-32-18"), None);
        assert_eq!(RULES.nip.problem("5842738192"), None);
        assert_eq!(
            RULES.nip.problem("1234563219"),
            Some(RULES.nip.checksum_message)
        );
        assert_eq!(RULES.nip.problem("12345"), Some(RULES.nip.length_message));
        assert_eq!(
            RULES.nip.problem("12345632a8"),
            Some(RULES.nip.length_message)
        );
    }

    #[test]
    fn regon_of_nine_and_fourteen_digits() {
        assert_eq!(RULES.regon.problem("123456785"), None);
        assert_eq!(RULES.regon.problem("382154678"), None);
        assert_eq!(
            RULES.regon.problem("123456786"),
            Some(RULES.regon.checksum_message)
        );
        assert_eq!(RULES.regon.problem("12345678512347"), None);
        assert_eq!(
            RULES.regon.problem("12345678512348"),
            Some(RULES.regon.checksum_message)
        );
        assert_eq!(
            RULES.regon.problem("1234567851"),
            Some(RULES.regon.length_message)
        );
    }

    #[test]
    fn a_remainder_of_ten_is_zero_for_regon_and_wrong_for_nip() {
        // Weights 8 + 2 make 10: the check digit is 0.
        assert_eq!(RULES.regon.problem("101000000"), None);
        // NIP with sum 10: 5*2 = 10 at the second place → no check digit exists.
        for last in 0..=9 {
            let nip = format!("020000000{last}");
            assert!(RULES.nip.problem(&nip).is_some(), "{nip}");
        }
    }
}
