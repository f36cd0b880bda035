//! Banks, parties, economic groups and municipalities.

use super::super::{
    db,
    error::{ApiError, Served, gql},
    ids::{self, NodeKind},
    list, loader,
    loaders::EconomicGroupLoader,
};
use super::enums::{DocumentKind, Programme, Region, Uf};
use async_graphql::Result;
use async_graphql::{Context, ID, Object};
use entity::{bank, domain::IbgeCode, economic_group, municipality, party};
use service::visible::Seen;

/// A financial institution (agente financeiro) that frames social-fuel projects or files FCO cartas.
#[derive(Clone, Debug)]
pub struct Bank(pub Seen<bank::Model>);

/// A financial institution (agente financeiro) that frames social-fuel projects or files FCO cartas.
#[fomento_macros::shared_fields]
#[Object]
impl Bank {
    /// Opaque global ID.
    pub async fn id(&self) -> ID {
        ids::encode(NodeKind::Bank, self.0.id)
    }

    /// Short stable code used by bank scripts and uploads (`BB`, `SICREDI`).
    pub(crate) async fn code(&self) -> &str {
        &self.0.code
    }

    /// Display name.
    pub(crate) async fn name(&self) -> &str {
        &self.0.name
    }

    /// The programmes the bank operates.
    pub(crate) async fn programmes(&self) -> Vec<Programme> {
        programmes_served(&self.0)
    }

    /// Whether the bank has MDA's technical-cooperation agreement and may analyse the social criteria itself
    /// (IN MDA nº 2/2005, art. 7).
    pub(crate) async fn mda_cooperation_agreement(&self) -> bool {
        self.0.mda_cooperation_agreement
    }

    /// The bank's reporting deadlines as of `asOf`: every 60 days for Banco do Brasil (FCO-BB-60D) and the monthly
    /// list of every FCO bank (FCO-MONTHLY-LIST). Empty for banks outside FCO.
    async fn deadlines(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The date to judge on; today in Brasília by default.")] as_of: Option<
            super::super::scalars::Date,
        >,
    ) -> Result<Vec<super::super::rules::Deadline>> {
        // Another bank's reporting record is none of a bank's business.
        if !service::visible::sees_bank(&crate::graphql::caller(ctx), self.0.id) {
            return Ok(Vec::new());
        }
        super::super::rules::bank_deadlines(ctx, &self.0, as_of).await
    }

    financings_field!(
        "Financings through this bank, in both programmes.",
        list::Scope::Bank(self.0.id)
    );
}

/// The programmes a bank operates.
pub(crate) fn programmes_served(b: &bank::Model) -> Vec<Programme> {
    let mut p = Vec::new();
    if b.serves_social_fuel {
        p.push(Programme::SocialFuel);
    }
    if b.serves_fco {
        p.push(Programme::FcoRural);
    }
    p
}

/// A party's document punctuated (`11.222.333/0001-81`), as shown to who may see it whole; as stored when it does
/// not parse.
pub(crate) fn whole_document(p: &party::Model) -> String {
    p.parsed_document()
        .map(|d| d.to_string())
        .unwrap_or_else(|| p.document.clone())
}

/// A person (CPF) or legal entity (CNPJ) that produces, borrows or supplies.
#[derive(Clone, Debug)]
pub struct Party(pub Seen<party::Model>);

impl Party {
    /// The document and name as the request's caller may see them.
    async fn shown(&self, ctx: &Context<'_>, document: String) -> Result<(String, String)> {
        let caller = crate::graphql::caller(ctx);
        let programmes = if service::privacy::depends_on_programme(&caller, &self.0) {
            service::privacy::programmes_of(crate::graphql::db(ctx), self.0.id)
                .await
                .map_err(|e| crate::graphql::error::gql(crate::graphql::error::ApiError::Internal(e.to_string())))?
        } else {
            Vec::new()
        };
        Ok(service::privacy::shown(&caller, &self.0, &programmes, document))
    }
}

/// A person (CPF) or legal entity (CNPJ) that produces, borrows or supplies.
#[fomento_macros::shared_fields]
#[Object]
impl Party {
    /// Opaque global ID.
    pub async fn id(&self) -> ID {
        ids::encode(NodeKind::Party, self.0.id)
    }

    /// The CPF or CNPJ, punctuated (`11.222.333/0001-81`). A person's CPF is masked (`***.456.789-**`) for a caller
    /// without the right to see it (an analyst; MDA outside social fuel; the chamber outside FCO).
    pub(crate) async fn document(&self, ctx: &Context<'_>) -> Result<String> {
        Ok(self.shown(ctx, whole_document(&self.0)).await?.0)
    }

    /// CPF or CNPJ.
    pub(crate) async fn document_kind(&self) -> DocumentKind {
        if self.0.document_kind == "CPF" {
            DocumentKind::Cpf
        } else {
            DocumentKind::Cnpj
        }
    }

    /// The first 8 characters of a CNPJ: the company across its branches. Null for a CPF.
    pub(crate) async fn cnpj_root(&self) -> Option<&str> {
        self.0.cnpj_root.as_deref()
    }

    /// Name or corporate name; a person's name is shown as initials to a caller without the right to see it.
    pub(crate) async fn name(&self, ctx: &Context<'_>) -> Result<String> {
        Ok(self.shown(ctx, String::new()).await?.1)
    }

    /// The economic group, cooperative or association the party belongs to (FCO-CEILING counts the whole group).
    async fn economic_group(&self, ctx: &Context<'_>) -> Result<Option<EconomicGroup>> {
        let Some(id) = self.0.economic_group_id else {
            return Ok(None);
        };
        let Some(group) = loader::<EconomicGroupLoader>(ctx).load_one(id).await.map_err(gql)? else {
            return Ok(None);
        };
        Ok(service::visible::group(db(ctx), &crate::graphql::caller(ctx), group)
            .await
            .served(ctx)?
            .map(EconomicGroup))
    }

    /// The other registered branches of the same company (same CNPJ root), this one excluded.
    async fn branches(&self, ctx: &Context<'_>) -> Result<Vec<Party>> {
        let Some(root) = &self.0.cnpj_root else {
            return Ok(Vec::new());
        };
        let rows = service::financings::branches(db(ctx), root, self.0.id)
            .await
            .served(ctx)?;
        let seen = service::visible::parties(db(ctx), &crate::graphql::caller(ctx), rows)
            .await
            .served(ctx)?;
        Ok(seen.into_iter().map(Party).collect())
    }

    financings_field!(
        "Financings of this party in both programmes; for a CNPJ, of every branch of the company (same root).",
        match &self.0.cnpj_root {
            Some(root) => list::Scope::CnpjRoot(root.clone()),
            None => list::Scope::Party(self.0.id),
        }
    );
}

/// An economic group, cooperative or association; the FCO R$ 15 M ceiling counts all its members together.
#[derive(Clone, Debug)]
pub struct EconomicGroup(pub Seen<economic_group::Model>);

/// An economic group, cooperative or association; the FCO R$ 15 M ceiling counts all its members together.
#[Object]
impl EconomicGroup {
    /// Opaque global ID.
    pub async fn id(&self) -> ID {
        ids::encode(NodeKind::EconomicGroup, self.0.id)
    }

    /// Name of the group.
    async fn name(&self) -> &str {
        &self.0.name
    }

    /// `GROUP`, `COOPERATIVE` or `ASSOCIATION`.
    async fn kind(&self) -> &str {
        &self.0.kind
    }

    /// The parties in the group.
    async fn members(&self, ctx: &Context<'_>) -> Result<Vec<Party>> {
        let rows = service::financings::group_members(db(ctx), self.0.id)
            .await
            .served(ctx)?;
        // A bank sees the members it finances.
        let seen = service::visible::parties(db(ctx), &crate::graphql::caller(ctx), rows)
            .await
            .served(ctx)?;
        Ok(seen.into_iter().map(Party).collect())
    }
}

/// A Brazilian municipality; its UF and region follow from the IBGE code.
#[derive(Clone, Debug)]
pub struct Municipality(pub Seen<municipality::Model>);

impl Municipality {
    fn code(&self) -> Result<IbgeCode> {
        self.0.code().ok_or_else(|| {
            gql(ApiError::Internal(format!(
                "stored IBGE code {} is invalid",
                self.0.ibge_code
            )))
        })
    }
}

/// A Brazilian municipality; its UF and region follow from the IBGE code.
#[Object]
impl Municipality {
    /// Opaque global ID.
    pub async fn id(&self) -> ID {
        ids::encode(NodeKind::Municipality, i64::from(self.0.ibge_code))
    }

    /// The 7-digit IBGE code.
    pub(crate) async fn ibge_code(&self) -> i32 {
        self.0.ibge_code
    }

    /// Official name.
    pub(crate) async fn name(&self) -> &str {
        &self.0.name
    }

    /// The federative unit (first two digits of the code).
    pub(crate) async fn uf(&self) -> Result<Uf> {
        Ok(self.code()?.uf().into())
    }

    /// The region (first digit of the code): it sets the social-fuel minimum share (IN MDA nº 2/2005, art. 3).
    pub(crate) async fn region(&self) -> Result<Region> {
        Ok(self.code()?.region().into())
    }
}
