//! Characters' names as players type them: told apart without regard to case (any script's:
//! `Ærwyn` is `ærwyn`, `Straße` is `STRASSE`), to how a letter is encoded (`Café` typed as
//! one `é` or as `e` and a combining accent; full-width letters), or to characters that print
//! as nothing (a zero-width space).

use unicode_normalization::UnicodeNormalization;

/// The form two names are compared in: trimmed; in Unicode's compatibility form (NFKC, so
/// full-width `Ｏｓｒｉｃ` is `Osric`); without the characters that print as nothing (a
/// zero-width space or joiner, a soft hyphen); lower-cased, `ß` as `ss`.
pub fn name_key(name: &str) -> String {
    let visible: String = name
        .trim()
        .nfkc()
        .filter(|c| {
            !matches!(
                c,
                '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}'
            )
        })
        .collect();
    visible.to_lowercase().replace('ß', "ss").nfc().collect()
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
        assert!(
            same_name("\u{ff2f}\u{ff53}\u{ff52}\u{ff49}\u{ff43}", "OSRIC"),
            "full-width"
        );
        assert!(same_name("A\u{200b}B", "AB"), "a zero-width space");
        assert!(same_name("Straße", "STRASSE"));
    }
}
