//! The related rows a page of financings read with it (its bank, borrower and municipality), kept for the request.

use super::types::objects::{Bank, Municipality, Party};
use entity::{bank, municipality, party, vocab::Programme};
use service::visible::Seen;
use std::collections::HashMap;

/// Related rows a page read in its own statement (joined), kept for the request so that the nodes' fields
/// (`bank`, `party`, `municipality`) answer from them instead of a lookup. Request data: what one request read is
/// never served to another.
#[derive(Debug, Default)]
pub struct Prefetched {
    banks: std::sync::Mutex<HashMap<i64, Bank>>,
    /// Each financing's borrower, by the financing (programme and id): seen through it, under the name its bank filed
    /// when the caller is that bank.
    parties: std::sync::Mutex<HashMap<(Programme, i64), Party>>,
    municipalities: std::sync::Mutex<HashMap<i32, Municipality>>,
}

impl Prefetched {
    /// Keeps the related rows of a page.
    pub fn keep(
        &self,
        rows: impl Iterator<
            Item = (
                Option<Seen<bank::Model>>,
                Option<((Programme, i64), Seen<party::Model>)>,
                Option<Seen<municipality::Model>>,
            ),
        >,
    ) {
        let (mut banks, mut parties, mut towns) = (
            self.banks.lock().unwrap_or_else(|e| e.into_inner()),
            self.parties.lock().unwrap_or_else(|e| e.into_inner()),
            self.municipalities.lock().unwrap_or_else(|e| e.into_inner()),
        );
        for (b, p, m) in rows {
            if let Some(b) = b {
                banks.insert(b.id, Bank(b));
            }
            if let Some((financing, p)) = p {
                parties.insert(financing, Party(p));
            }
            if let Some(m) = m {
                towns.insert(m.ibge_code, Municipality(m));
            }
        }
    }

    /// A bank read with the page.
    pub fn bank(&self, id: i64) -> Option<Bank> {
        self.banks.lock().unwrap_or_else(|e| e.into_inner()).get(&id).cloned()
    }

    /// The borrower of a financing read with the page.
    pub fn party(&self, financing: (Programme, i64)) -> Option<Party> {
        self.parties
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&financing)
            .cloned()
    }

    /// `f` of a bank read with the page, borrowed.
    pub fn with_bank<R>(&self, id: i64, f: impl FnOnce(&Bank) -> R) -> Option<R> {
        self.banks.lock().unwrap_or_else(|e| e.into_inner()).get(&id).map(f)
    }

    /// `f` of the borrower of a financing read with the page, borrowed.
    pub fn with_party<R>(&self, financing: (Programme, i64), f: impl FnOnce(&Party) -> R) -> Option<R> {
        self.parties
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&financing)
            .map(f)
    }

    /// `f` of a municipality read with the page, borrowed.
    pub fn with_municipality<R>(&self, code: i32, f: impl FnOnce(&Municipality) -> R) -> Option<R> {
        self.municipalities
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&code)
            .map(f)
    }

    /// A municipality read with the page.
    pub fn municipality(&self, code: i32) -> Option<Municipality> {
        self.municipalities
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&code)
            .cloned()
    }
}
