//! What each role may do: the one table of permissions. A door names the operation a request performs (the graph
//! maps each mutation to one; a door that forgets is refused, not let through) and the use case checks the object it
//! touches is within the caller's [`Scope`]: a bank's key never reaches another bank's cartas or reports, which answer
//! as if they did not exist.

use crate::{
    Caller, ServiceError,
    caller::{Role, Scope},
    messages::{Message, code as msg},
};
use entity::vocab::Programme;

type Result<T> = std::result::Result<T, ServiceError>;

/// What a request does, by family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Read the financings, parties, reports, flags and rules it may see.
    Read,
    /// Read the dashboards and export their tables.
    Dashboards,
    /// Export rows (financings, cartas, flags).
    Export,
    /// Social-fuel projects: their facts, decisions and evaluations (MDA).
    SocialFuel,
    /// Chamber meetings, opinions and decisions on cartas, economic groups (the CDAE chamber).
    Chamber,
    /// A decision on a carta: the chamber's opinion (the CDAE chamber), or a bank's own decision on its cartas below
    /// the chamber's threshold (art. 2 §3); [`decides_carta`] tells them apart.
    DecideCarta,
    /// A bank's own cartas and reports: filing, items, contracts, monthly lists (the bank; the use case checks it
    /// is the caller's bank).
    BankData,
    /// Checklist confirmations: MDA on social fuel, the chamber on FCO.
    Confirm,
    /// Resolve a compliance flag (the use case checks the flag's programme).
    ResolveFlag,
    /// Keys, rule parameters, non-business days, banks, reference imports, webhooks.
    Administer,
    /// Read the server's metrics (`/metrics`).
    ReadMetrics,
}

impl Operation {
    /// Its name in a refusal (the same in every language): `dashboards`, `social-fuel`, `administer`, …
    pub fn name(self) -> &'static str {
        match self {
            Operation::Read => "read",
            Operation::Dashboards => "dashboards",
            Operation::Export => "export",
            Operation::SocialFuel => "social-fuel",
            Operation::Chamber => "chamber",
            Operation::DecideCarta => "decide-carta",
            Operation::BankData => "bank-data",
            Operation::Confirm => "confirm",
            Operation::ResolveFlag => "resolve-flag",
            Operation::Administer => "administer",
            Operation::ReadMetrics => "read-metrics",
        }
    }
}

/// Whether `role` may ever perform `op`.
pub fn allows(role: Role, op: Operation) -> bool {
    use Operation as O;
    match role {
        Role::Admin => true,
        Role::Analyst => matches!(op, O::Read | O::Dashboards | O::Export),
        Role::Mda => matches!(
            op,
            O::Read | O::Dashboards | O::Export | O::SocialFuel | O::Confirm | O::ResolveFlag
        ),
        Role::Council => matches!(
            op,
            O::Read | O::Dashboards | O::Export | O::Chamber | O::DecideCarta | O::Confirm | O::ResolveFlag
        ),
        Role::Bank => matches!(op, O::Read | O::Export | O::BankData | O::DecideCarta),
        Role::Metrics => op == O::ReadMetrics,
    }
}

/// Refuses a caller that may never perform `op`: `UNAUTHENTICATED` without credentials, `FORBIDDEN` for a role
/// without the right. The operator (CLI, jobs) may do everything.
pub fn authorize(caller: &Caller, op: Operation) -> Result<()> {
    match caller {
        Caller::System | Caller::Operator(_) | Caller::Import { .. } => Ok(()),
        Caller::Anonymous => Err(ServiceError::Unauthenticated(Message::new(msg::UNAUTHENTICATED))),
        Caller::Key { role, .. } | Caller::Token { role, .. } if allows(*role, op) => Ok(()),
        Caller::Key { role, .. } | Caller::Token { role, .. } => Err(forbidden(*role, op)),
    }
}

fn forbidden(role: Role, op: Operation) -> ServiceError {
    ServiceError::Forbidden(
        Message::new(msg::FORBIDDEN)
            .arg("role", role.as_str())
            .arg("operation", op.name()),
    )
}

/// Refuses a caller whose role does not act on `programme` (a flag or a confirmation of it): MDA on social fuel,
/// the chamber on FCO; the administrator and the operator on both.
pub fn for_programme(caller: &Caller, programme: Programme, op: Operation) -> Result<()> {
    authorize(caller, op)?;
    match (caller.role(), programme) {
        (Some(Role::Mda), Programme::FcoRural) | (Some(Role::Council), Programme::SocialFuel) => {
            Err(forbidden(caller.role().unwrap_or(Role::Analyst), op))
        }
        _ => Ok(()),
    }
}

/// Refuses a caller who may not record this decision on a carta: the chamber's opinion (`by_chamber`) is the chamber's
/// (`chamber`); a bank records only its own decision (art. 2 §3), on its own cartas (the use case checks the carta).
pub fn decides_carta(caller: &Caller, by_chamber: bool) -> Result<()> {
    authorize(
        caller,
        if by_chamber {
            Operation::Chamber
        } else {
            Operation::DecideCarta
        },
    )
}

/// Refuses, as not found, an object of `bank` outside the caller's scope: `field` names it, `missing` is the message
/// the caller would get if it did not exist.
pub fn within(caller: &Caller, bank: i64, field: &'static str, missing: impl FnOnce() -> Message) -> Result<()> {
    if caller.scope().sees_bank(bank) {
        Ok(())
    } else {
        Err(ServiceError::not_found(field, missing()))
    }
}

/// The bank a caller's reads are limited to (a `bank` key's), or none; a caller who may read nothing is refused.
pub fn read_scope(caller: &Caller) -> Result<Option<i64>> {
    authorize(caller, Operation::Read)?;
    Ok(match caller.scope() {
        Scope::Bank(b) => Some(b),
        Scope::All => None,
        // A bank key without its bank (never created so): nothing.
        Scope::Nothing => Some(-1),
    })
}

/// Whether `caller` may see the party `party`: anybody who reads everything; a bank, its own borrowers only (a
/// party with a carta or project through it).
pub async fn sees_party(db: &impl sea_orm::ConnectionTrait, caller: &Caller, party: i64) -> Result<bool> {
    use entity::financing::{Column as C, Entity};
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
    Ok(match read_scope(caller)? {
        None => true,
        Some(b) => {
            Entity::find()
                .filter(C::PartyId.eq(party))
                .filter(C::BankId.eq(b))
                .count(db)
                .await?
                > 0
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_role_does_its_own_work_and_no_other() {
        use Operation as O;
        assert!(allows(Role::Mda, O::SocialFuel) && !allows(Role::Mda, O::Chamber));
        assert!(allows(Role::Council, O::Chamber) && !allows(Role::Council, O::SocialFuel));
        assert!(allows(Role::Bank, O::BankData) && !allows(Role::Bank, O::Dashboards));
        assert!(!allows(Role::Analyst, O::BankData) && allows(Role::Analyst, O::Export));
        for role in [Role::Bank, Role::Mda, Role::Council, Role::Analyst, Role::Metrics] {
            assert!(!allows(role, O::Administer), "{role} may not administer");
        }
        // The scraper's key reads the metrics and nothing else; of the others, only the administrator reads them.
        assert!(allows(Role::Metrics, O::ReadMetrics) && !allows(Role::Metrics, O::Read));
        assert!(allows(Role::Admin, O::ReadMetrics) && !allows(Role::Analyst, O::ReadMetrics));
        assert!(matches!(
            authorize(&Caller::Anonymous, O::Read),
            Err(ServiceError::Unauthenticated(_))
        ));
        let bank = Caller::Key {
            id: 1,
            name: "b".into(),
            role: Role::Bank,
            bank: Some(7),
        };
        assert!(within(&bank, 7, "id", || Message::new(msg::KEY_UNKNOWN)).is_ok());
        assert!(matches!(
            within(&bank, 8, "id", || Message::new(msg::KEY_UNKNOWN)),
            Err(ServiceError::NotFound { .. })
        ));
        let mda = Caller::Key {
            id: 2,
            name: "m".into(),
            role: Role::Mda,
            bank: None,
        };
        assert!(for_programme(&mda, Programme::SocialFuel, O::ResolveFlag).is_ok());
        assert!(matches!(
            for_programme(&mda, Programme::FcoRural, O::ResolveFlag),
            Err(ServiceError::Forbidden(_))
        ));
    }
}
