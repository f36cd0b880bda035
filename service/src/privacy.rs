//! Personal data under the LGPD: the CPF and the name of a natural person. Shown whole to the administrator, the
//! operator, a bank (which only ever reaches its own borrowers), MDA for a person in social fuel and the chamber for
//! a person in FCO; masked for everybody else (`***.456.789-**`, initials). A company (CNPJ) is not a person: its
//! document and corporate name are shown to all.

pub use crate::masks::{initials, mask_cpf, scrub_cpfs};
use crate::{Caller, caller::Role};
use entity::{party, vocab::Programme};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QuerySelect};

/// Whether `caller` sees whole the personal data of a person with financings in `programmes`.
pub fn sees_personal(caller: &Caller, programmes: &[Programme]) -> bool {
    match caller {
        Caller::System | Caller::Operator(_) | Caller::Import { .. } => true,
        Caller::Anonymous => false,
        Caller::Key { role, .. } | Caller::Token { role, .. } => match role {
            Role::Admin | Role::Bank => true,
            Role::Mda => programmes.contains(&Programme::SocialFuel),
            Role::Council => programmes.contains(&Programme::FcoRural),
            Role::Analyst | Role::Metrics => false,
        },
    }
}

/// A value a bank sent in a column of personal data, as somebody without the right may see it: a CPF masked, a
/// name as initials (a row's name is masked even when the row is a company's: the value alone does not say).
pub fn mask_value(value: &str, is_name: bool) -> String {
    if is_name { initials(value) } else { scrub_cpfs(value) }
}

/// Whether a party is a natural person (its document a CPF).
pub fn is_person(p: &party::Model) -> bool {
    p.document_kind == "CPF"
}

/// A party's document and name as `caller` may see them, knowing the programmes it is in.
pub fn shown(caller: &Caller, p: &party::Model, programmes: &[Programme], document: String) -> (String, String) {
    (
        document_shown(caller, p, programmes, || document),
        name_shown(caller, p, programmes),
    )
}

/// A party's document as `caller` may see it: `whole` (the document as shown whole), or the CPF masked.
pub fn document_shown(
    caller: &Caller,
    p: &party::Model,
    programmes: &[Programme],
    whole: impl FnOnce() -> String,
) -> String {
    if !is_person(p) || sees_personal(caller, programmes) {
        whole()
    } else {
        mask_cpf(&p.document)
    }
}

/// A party's name as `caller` may see it: whole, or a person's initials.
pub fn name_shown(caller: &Caller, p: &party::Model, programmes: &[Programme]) -> String {
    if !is_person(p) || sees_personal(caller, programmes) {
        p.name.clone()
    } else {
        initials(&p.name)
    }
}

/// The programmes a party holds financings in (asked only when the answer matters: a person, for MDA or the
/// chamber).
pub async fn programmes_of(db: &impl ConnectionTrait, party: i64) -> Result<Vec<Programme>, DbErr> {
    use entity::financing::{Column as C, Entity};
    Entity::find()
        .select_only()
        .column(C::Programme)
        .distinct()
        .filter(C::PartyId.eq(party))
        .into_tuple()
        .all(db)
        .await
}

/// Whom a caller may find by personal data (a CPF, a person's name): looking a person up, filtering or searching by
/// them answers only with persons the caller sees whole, so that an answer (a match, a count, an error) never narrows
/// a value the caller sees masked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PersonLookup {
    /// Every person (the administrator, the operator; a bank, within the borrowers it finances).
    Any,
    /// The persons with a financing in this programme (MDA in social fuel, the chamber in FCO); any other answers as
    /// if absent.
    In(Programme),
    /// None: a lookup by CPF is refused, and names match companies only (the analyst).
    Nobody,
}

/// Whom `caller` may find by personal data.
pub fn person_lookup(caller: &Caller) -> PersonLookup {
    match caller.role() {
        None | Some(Role::Admin | Role::Bank) => PersonLookup::Any,
        Some(Role::Mda) => PersonLookup::In(Programme::SocialFuel),
        Some(Role::Council) => PersonLookup::In(Programme::FcoRural),
        Some(Role::Analyst | Role::Metrics) => PersonLookup::Nobody,
    }
}

/// Refuses a lookup by CPF (`field`) to a caller who sees every person masked.
pub fn may_look_up_cpf(caller: &Caller, field: &str) -> Result<(), crate::ServiceError> {
    match (person_lookup(caller), caller.role()) {
        (PersonLookup::Nobody, Some(role)) => Err(crate::ServiceError::Forbidden(
            crate::messages::Message::new(crate::messages::code::PERSONAL_LOOKUP_FORBIDDEN)
                .arg("role", role.as_str())
                .arg("field", field),
        )),
        _ => Ok(()),
    }
}

/// The parties of `rows` that `caller` may find by personal data: every company, and the persons it sees whole.
pub async fn findable(
    db: &impl ConnectionTrait,
    caller: &Caller,
    rows: Vec<party::Model>,
) -> Result<Vec<party::Model>, DbErr> {
    let programme = match person_lookup(caller) {
        PersonLookup::Any => return Ok(rows),
        PersonLookup::Nobody => return Ok(rows.into_iter().filter(|p| !is_person(p)).collect()),
        PersonLookup::In(p) => p,
    };
    let persons: Vec<i64> = rows.iter().filter(|p| is_person(p)).map(|p| p.id).collect();
    let mut within = std::collections::HashSet::new();
    for chunk in persons.chunks(5_000) {
        use entity::financing::{Column as C, Entity};
        let ids: Vec<i64> = Entity::find()
            .select_only()
            .column(C::PartyId)
            .distinct()
            .filter(C::Programme.eq(programme))
            .filter(C::PartyId.is_in(chunk.to_vec()))
            .into_tuple()
            .all(db)
            .await?;
        within.extend(ids);
    }
    Ok(rows
        .into_iter()
        .filter(|p| !is_person(p) || within.contains(&p.id))
        .collect())
}

/// Whether the answer for `caller` depends on the party's programmes.
pub fn depends_on_programme(caller: &Caller, p: &party::Model) -> bool {
    is_person(p) && matches!(caller.role(), Some(Role::Mda | Role::Council))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpfs_in_text_are_masked_and_cnpjs_and_other_numbers_are_not() {
        assert_eq!(
            scrub_cpfs("o CPF 123.456.789-09 já pertence ao grupo 7."),
            "o CPF ***.456.789-** já pertence ao grupo 7."
        );
        assert_eq!(scrub_cpfs("12345678909"), "***.456.789-**");
        assert_eq!(scrub_cpfs("CNPJ 12.345.678/0001-95"), "CNPJ 12.345.678/0001-95");
        assert_eq!(scrub_cpfs("12345678000195"), "12345678000195");
        assert_eq!(scrub_cpfs("linha 2026, R$ 1.234.567,89"), "linha 2026, R$ 1.234.567,89");
        assert_eq!(
            scrub_cpfs("123456789090"),
            "123456789090",
            "twelve digits are not a CPF"
        );
        assert_eq!(mask_value("Maria da Silva", true), "M. S.");
        // Eleven digits inside a longer word are no CPF: trace ids, hashes, keys.
        for word in [
            "4bf92f3577b34da6a3ce929d0e0e4736",
            "a01234567890f4da6a3ce929d0e0e473",
            "01234567890abcdef0123456789abcde",
            "abcdef0123456789abcdef0123456789",
            "fmt_12345678909x",
            "fmt_12345678909",
        ] {
            assert_eq!(scrub_cpfs(&format!("trace_id={word}")), format!("trace_id={word}"));
        }
        assert_eq!(
            scrub_cpfs("\"document\":\"12345678909\""),
            "\"document\":\"***.456.789-**\""
        );
        assert_eq!(scrub_cpfs("CPF:123.456.789-09;"), "CPF:***.456.789-**;");
    }

    #[test]
    fn masks_are_those_of_the_plain_definitions() {
        // The definitions the faster code must agree with.
        fn mask_cpf_by_definition(document: &str) -> String {
            let digits: String = document.chars().filter(char::is_ascii_digit).collect();
            match digits.get(3..9) {
                Some(mid) if digits.len() == 11 => format!("***.{}.{}-**", &mid[..3], &mid[3..]),
                _ => "***".to_owned(),
            }
        }
        fn initials_by_definition(name: &str) -> String {
            name.split_whitespace()
                .filter(|w| !matches!(w.to_lowercase().as_str(), "da" | "de" | "do" | "das" | "dos" | "e"))
                .filter_map(|w| w.chars().next())
                .map(|c| format!("{}.", c.to_uppercase()))
                .collect::<Vec<_>>()
                .join(" ")
        }
        for text in [
            "123.456.789-09",
            "12345678909",
            "1234567890",
            "123456789090",
            "",
            "CPF: 123 456 789 09",
            "١٢٣٤٥٦٧٨٩٠٩",
            "Maria DA Silva e Souza Dos Santos",
            "  élio   ßrandão  das  Águas  E  ",
            "DAS De do DOS",
            "K\u{212A} İlhan",
        ] {
            assert_eq!(mask_cpf(text), mask_cpf_by_definition(text), "{text:?}");
            assert_eq!(initials(text), initials_by_definition(text), "{text:?}");
        }
    }

    #[test]
    fn a_cpf_and_a_name_are_masked_for_who_may_not_see_them() {
        assert_eq!(mask_cpf("123.456.789-09"), "***.456.789-**");
        assert_eq!(mask_cpf("12345678909"), "***.456.789-**");
        assert_eq!(initials("Maria da Silva Pecuarista"), "M. S. P.");
        let key = |role| Caller::Key {
            id: 1,
            name: "k".into(),
            role,
            bank: None,
        };
        assert!(!sees_personal(&key(Role::Analyst), &[Programme::FcoRural]));
        assert!(sees_personal(&key(Role::Council), &[Programme::FcoRural]));
        assert!(!sees_personal(&key(Role::Council), &[Programme::SocialFuel]));
        assert!(sees_personal(
            &key(Role::Mda),
            &[Programme::SocialFuel, Programme::FcoRural]
        ));
        assert!(sees_personal(&key(Role::Admin), &[]));
    }
}
