//! Personal data under the LGPD: the CPF and the name of a natural person. Shown whole to the administrator, the
//! operator, a bank (which only ever reaches its own borrowers), MDA for a person in social fuel and the chamber for
//! a person in FCO; masked for everybody else (`***.456.789-**`, initials). A company (CNPJ) is not a person: its
//! document and corporate name are shown to all.

use crate::{Caller, caller::Role};
use entity::{party, vocab::Programme};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QuerySelect};

/// Whether `caller` sees whole the personal data of a person with financings in `programmes`.
pub fn sees_personal(caller: &Caller, programmes: &[Programme]) -> bool {
    match caller {
        Caller::System | Caller::Import { .. } => true,
        Caller::Anonymous => false,
        Caller::Key { role, .. } => match role {
            Role::Admin | Role::Bank => true,
            Role::Mda => programmes.contains(&Programme::SocialFuel),
            Role::Council => programmes.contains(&Programme::FcoRural),
            Role::Analyst => false,
        },
    }
}

/// A CPF masked: the middle six digits kept (`***.456.789-**`).
pub fn mask_cpf(document: &str) -> String {
    let digits: String = document.chars().filter(char::is_ascii_digit).collect();
    match digits.get(3..9) {
        Some(mid) if digits.len() == 11 => format!("***.{}.{}-**", &mid[..3], &mid[3..]),
        _ => "***".to_owned(),
    }
}

/// A person's name as initials (`Maria da Silva Pecuarista` → `M. S. P.`; particles left out).
pub fn initials(name: &str) -> String {
    name.split_whitespace()
        .filter(|w| !matches!(w.to_lowercase().as_str(), "da" | "de" | "do" | "das" | "dos" | "e"))
        .filter_map(|w| w.chars().next())
        .map(|c| format!("{}.", c.to_uppercase()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a party is a natural person (its document a CPF).
pub fn is_person(p: &party::Model) -> bool {
    p.document_kind == "CPF"
}

/// A party's document and name as `caller` may see them, knowing the programmes it is in.
pub fn shown(caller: &Caller, p: &party::Model, programmes: &[Programme], document: String) -> (String, String) {
    if !is_person(p) || sees_personal(caller, programmes) {
        (document, p.name.clone())
    } else {
        (mask_cpf(&p.document), initials(&p.name))
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

/// Whether the answer for `caller` depends on the party's programmes.
pub fn depends_on_programme(caller: &Caller, p: &party::Model) -> bool {
    is_person(p) && matches!(caller.role(), Some(Role::Mda | Role::Council))
}

#[cfg(test)]
mod tests {
    use super::*;

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
