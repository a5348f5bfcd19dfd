//! Characters' names as players type them: told apart without regard to case (any script's:
//! `Ærwyn` is `ærwyn`) or to how a composed letter is encoded (`Café` typed as one `é` or as
//! `e` and a combining accent is one name).

use unicode_normalization::UnicodeNormalization;

/// The form two names are compared in: trimmed, lower-cased, in Unicode's composed form (NFC).
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase().nfc().collect()
}

/// Whether `a` and `b` name the same character.
pub fn same_name(a: &str, b: &str) -> bool {
    a.trim() == b.trim() || name_key(a) == name_key(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_in_any_script_and_the_encoding_of_accents_do_not_tell_names_apart() {
        assert!(same_name("Ærwyn", "ærwyn"));
        assert!(same_name("OSRIC", " osric "));
        assert!(same_name("Caf\u{e9}", "Cafe\u{301}"));
        assert!(!same_name("Café", "Cafe"));
        assert!(!same_name("Osric", "Osrik"));
    }
}
