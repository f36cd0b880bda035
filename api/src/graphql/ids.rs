//! Opaque Relay global IDs: base64 of `Type:key`. Clients must treat them as opaque.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};

/// The kinds of object a global ID can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// A bank.
    Bank,
    /// A CPF/CNPJ party.
    Party,
    /// An economic group.
    EconomicGroup,
    /// A municipality (key: IBGE code).
    Municipality,
    /// A social-fuel project.
    SocialFuelProject,
    /// An FCO carta.
    FcoCarta,
    /// A bank's monthly report.
    BankReport,
    /// A meeting of the CPACR chamber.
    ChamberMeeting,
    /// A bulk import of facts.
    FactImport,
    /// A compliance flag.
    ComplianceFlag,
    /// A version of a rule parameter.
    RuleParameter,
    /// A version of an FCO carta's item.
    CartaItem,
    /// A version of a social-fuel project's feedstock acquisition.
    FeedstockAcquisition,
    /// A version of a social-fuel project's contract proposal.
    ContractProposal,
}

impl NodeKind {
    const ALL: [NodeKind; 14] = [
        Self::Bank,
        Self::Party,
        Self::EconomicGroup,
        Self::Municipality,
        Self::SocialFuelProject,
        Self::FcoCarta,
        Self::BankReport,
        Self::ChamberMeeting,
        Self::FactImport,
        Self::ComplianceFlag,
        Self::RuleParameter,
        Self::CartaItem,
        Self::FeedstockAcquisition,
        Self::ContractProposal,
    ];

    /// The GraphQL type name, which is also the prefix inside the ID.
    pub fn type_name(self) -> &'static str {
        match self {
            Self::Bank => "Bank",
            Self::Party => "Party",
            Self::EconomicGroup => "EconomicGroup",
            Self::Municipality => "Municipality",
            Self::SocialFuelProject => "SocialFuelProject",
            Self::FcoCarta => "FcoCarta",
            Self::BankReport => "BankReport",
            Self::ChamberMeeting => "ChamberMeeting",
            Self::FactImport => "FactImport",
            Self::ComplianceFlag => "ComplianceFlag",
            Self::RuleParameter => "RuleParameter",
            Self::CartaItem => "CartaItem",
            Self::FeedstockAcquisition => "FeedstockAcquisition",
            Self::ContractProposal => "ContractProposal",
        }
    }
}

/// Encodes a global ID.
pub fn encode(kind: NodeKind, key: i64) -> async_graphql::ID {
    async_graphql::ID(URL_SAFE_NO_PAD.encode(format!("{}:{key}", kind.type_name())))
}

/// Decodes a global ID into its kind and key; `None` when it is not one of ours.
pub fn decode(id: &str) -> Option<(NodeKind, i64)> {
    let raw = URL_SAFE_NO_PAD.decode(id.trim().trim_end_matches('=')).ok()?;
    let text = String::from_utf8(raw).ok()?;
    let (prefix, key) = text.split_once(':')?;
    let kind = NodeKind::ALL.into_iter().find(|k| k.type_name() == prefix)?;
    Some((kind, key.parse().ok()?))
}

/// Decodes a global ID that must name an object of `kind`.
pub fn decode_as(id: &str, kind: NodeKind) -> Option<i64> {
    match decode(id) {
        Some((k, key)) if k == kind => Some(key),
        _ => None,
    }
}

impl NodeKind {
    /// What an ID of this kind names, with its article, for messages (`a bank`, `an FCO carta`).
    pub fn noun(self) -> &'static str {
        match self {
            Self::Bank => "a bank",
            Self::Party => "a party",
            Self::EconomicGroup => "an economic group",
            Self::Municipality => "a municipality",
            Self::SocialFuelProject => "a social-fuel project",
            Self::FcoCarta => "an FCO carta",
            Self::BankReport => "a bank report",
            Self::ChamberMeeting => "a chamber meeting",
            Self::FactImport => "a fact import",
            Self::ComplianceFlag => "a compliance flag",
            Self::RuleParameter => "a rule parameter version",
            Self::CartaItem => "a carta item version",
            Self::FeedstockAcquisition => "a feedstock acquisition version",
            Self::ContractProposal => "a contract proposal version",
        }
    }
}

/// Decodes the ID a client gave as argument `arg`, which must name an object of `kind`; otherwise a `BAD_USER_INPUT`
/// error naming the argument (`bankId: "x" is not a bank ID`).
pub fn arg(id: &str, kind: NodeKind, arg: &str) -> async_graphql::Result<i64> {
    decode_as(id, kind).ok_or_else(|| bad_id(arg, id, Some(kind)))
}

/// No object of `kind` has this ID (or none the caller may see): `NOT_FOUND` in the request's language, the one
/// answer of every lookup by ID.
pub fn no_such(kind: NodeKind, id: &async_graphql::ID) -> async_graphql::Error {
    super::localise::error("NOT_FOUND", unknown(kind, id))
}

/// [`no_such`]'s message: no object of `kind` has the ID `id`, quoted as sent.
pub fn unknown(kind: NodeKind, id: &str) -> service::messages::Message {
    service::messages::Message::new(service::messages::code::ID_UNKNOWN)
        .arg("kind", kind.type_name())
        .arg("id", format!("{id:?}"))
}

/// A `BAD_USER_INPUT` error: argument `arg` holds `id`, which is no ID (of `kind`, when one is expected), in the
/// request's language.
pub fn bad_id(arg: &str, id: &str, kind: Option<NodeKind>) -> async_graphql::Error {
    super::localise::error(
        "BAD_USER_INPUT",
        service::messages::Message::new(service::messages::code::ID_INVALID)
            .arg("arg", arg)
            .arg("id", format!("{id:?}"))
            .arg("kind", kind.map_or("any", NodeKind::type_name)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_foreign_strings_are_refused() {
        let id = encode(NodeKind::FcoCarta, 42);
        assert_eq!(decode(&id), Some((NodeKind::FcoCarta, 42)));
        assert_eq!(decode_as(&id, NodeKind::FcoCarta), Some(42));
        assert_eq!(decode_as(&id, NodeKind::Bank), None);
        assert_eq!(decode("not-an-id"), None);
        assert_eq!(decode(&URL_SAFE_NO_PAD.encode("Unknown:1")), None);
        assert_eq!(decode(&URL_SAFE_NO_PAD.encode("Bank:x")), None);
    }
}
