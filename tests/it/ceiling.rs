//! FCO-CEILING's two forms agree on generated borrower groups: the set-based statement a report's ingestion runs
//! (`service::ceiling::cartas_over`, one statement over every carta) and the pure rule that judges one carta
//! (`entity::rules::fco::ceiling`), at the legal ceiling, with groups at it, a centavo over it and far from it.

use crate::helpers::on_each_backend;
use crate::reports::cpf;
use entity::{
    domain::Money,
    fco_carta, municipality,
    rules::{Status, Texts, fco},
    vocab::{FcoActivity, FcoCartaStage, FcoLine},
};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, EntityTrait, Iterable, TransactionTrait};
use std::collections::{BTreeMap, BTreeSet};

/// A small generator of the same numbers on every run (xorshift).
struct Numbers(u64);

impl Numbers {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[tokio::test]
async fn the_set_based_ceiling_agrees_with_the_pure_rule_on_generated_groups() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let bank = entity::bank::Entity::find()
            .one(&app.db)
            .await
            .expect("bank")
            .expect("BB");
        let town = municipality::Entity::find()
            .one(&app.db)
            .await
            .expect("municipality")
            .expect("a municipality");
        let on = chrono::NaiveDate::from_ymd_opt(2019, 6, 1).expect("day");
        let params = service::parameters::params(&app.db).await.expect("params");
        let ceiling = Money::from_decimal(fco::ceiling_amount(&params, on).expect("ceiling")).expect("money");
        let mut numbers = Numbers(0x9E37_79B9_7F4A_7C15);
        let groups: Vec<i64> = {
            let mut ids = Vec::new();
            for g in 0..8 {
                let group = entity::economic_group::ActiveModel {
                    name: Set(format!("Grupo {g}")),
                    kind: Set("GROUP".into()),
                    ..Default::default()
                }
                .insert(&app.db)
                .await
                .expect("group");
                ids.push(group.id);
            }
            ids
        };
        // Forty borrowers: three in four in one of the groups, the rest alone.
        let mut borrowers = Vec::new();
        for p in 0..40u32 {
            let group = (numbers.below(4) != 0).then(|| groups[numbers.below(groups.len() as u64) as usize]);
            let party = entity::party::ActiveModel {
                document: Set(cpf(9000 + p)),
                document_kind: Set("CPF".into()),
                name: Set(format!("Tomador {p}")),
                economic_group_id: Set(group),
                ..Default::default()
            }
            .insert(&app.db)
            .await
            .expect("party");
            // The borrower group, as both forms count it: the economic group, or the borrower alone.
            borrowers.push((party.id, group.map_or(-party.id, |g| g)));
        }
        let stages: Vec<FcoCartaStage> = FcoCartaStage::iter().collect();
        let mut cartas: Vec<(i64, i64, FcoCartaStage, i64)> = Vec::new();
        let insert = |n: usize, party: i64, stage: FcoCartaStage, cents: i64| {
            let (db, bank, town) = (app.db.clone(), bank.id, town.ibge_code);
            async move {
                let c = fco_carta::ActiveModel {
                    number: Set(format!("TETO-{n:04}/2019")),
                    bank_id: Set(bank),
                    party_id: Set(party),
                    line: Set(FcoLine::Rural),
                    activity: Set(FcoActivity::BeefCattle),
                    financed_amount: Set(Money(cents)),
                    municipality_code: Set(town),
                    stage: Set(stage),
                    status: Set(stage.status()),
                    created_at: Set(chrono::Utc::now()),
                    special_demand: Set(false),
                    ..Default::default()
                }
                .insert(&db)
                .await
                .expect("carta");
                c.id
            }
        };
        for n in 0..160 {
            let (party, group) = borrowers[numbers.below(borrowers.len() as u64) as usize];
            let stage = stages[numbers.below(stages.len() as u64) as usize];
            // Up to R$ 6 M a carta, in whole centavos.
            let cents = 1 + numbers.below(600_000_000) as i64;
            let id = insert(n, party, stage, cents).await;
            cartas.push((id, group, stage, cents));
        }
        // Two borrowers alone at the boundary: one at the ceiling to the centavo (met), one a centavo over it.
        for (k, extra) in [(0, 0), (1, 1)] {
            let party = entity::party::ActiveModel {
                document: Set(cpf(9900 + k)),
                document_kind: Set("CPF".into()),
                name: Set(format!("Limite {k}")),
                ..Default::default()
            }
            .insert(&app.db)
            .await
            .expect("party");
            let half = ceiling.cents() / 2;
            for (n, cents) in [
                (200 + 2 * k as usize, half),
                (201 + 2 * k as usize, ceiling.cents() - half + extra),
            ] {
                let id = insert(n, party.id, FcoCartaStage::Contracted, cents).await;
                cartas.push((id, -party.id, FcoCartaStage::Contracted, cents));
            }
        }

        let mut committed: BTreeMap<i64, i64> = BTreeMap::new();
        for (_, group, stage, cents) in &cartas {
            if fco_carta::COMMITTED.contains(stage) {
                *committed.entry(*group).or_default() += cents;
            }
        }
        let pure: BTreeSet<i64> = cartas
            .iter()
            .filter(|(_, _, stage, _)| fco_carta::COMMITTED.contains(stage))
            .filter(|(_, group, _, _)| {
                let exposure = Money(committed[group]);
                fco::ceiling(exposure, &params, on, Texts::Written)
                    .expect("rule")
                    .status
                    == Status::Violated
            })
            .map(|(id, ..)| *id)
            .collect();
        assert!(
            pure.len() >= 3 && pure.len() < cartas.len() / 2,
            "the generated groups put some cartas over the ceiling and most under it: {} of {}",
            pure.len(),
            cartas.len()
        );
        let boundary: Vec<i64> = cartas[cartas.len() - 4..].iter().map(|c| c.0).collect();
        assert!(
            !pure.contains(&boundary[0]) && !pure.contains(&boundary[1]),
            "at the ceiling: met"
        );
        assert!(
            pure.contains(&boundary[2]) && pure.contains(&boundary[3]),
            "a centavo over: violated"
        );

        let txn = app.db.begin().await.expect("txn");
        let over = service::ceiling::cartas_over(&txn, None, ceiling.cents())
            .await
            .expect("set-based");
        txn.rollback().await.expect("rollback");
        let set_based: BTreeSet<i64> = over
            .iter()
            .map(|o| o.carta_id)
            .filter(|id| cartas.iter().any(|c| c.0 == *id && fco_carta::COMMITTED.contains(&c.2)))
            .collect();
        assert_eq!(
            set_based, pure,
            "{:?}: both forms find the same committed cartas over",
            app.backend
        );
        // The statement also names the group's other cartas (a report flags each it lists), with the group's total.
        for o in &over {
            let (_, group, ..) = cartas.iter().find(|c| c.0 == o.carta_id).expect("a generated carta");
            assert_eq!(
                o.group_total_cents, committed[group],
                "the total of carta {}'s group",
                o.number
            );
            assert!(
                fco::ceiling(Money(committed[group]), &params, on, Texts::Written)
                    .expect("rule")
                    .status
                    == Status::Violated
            );
        }
        let in_over_groups = cartas.iter().filter(|c| {
            pure.iter()
                .any(|p| cartas.iter().find(|x| x.0 == *p).is_some_and(|x| x.1 == c.1))
        });
        assert_eq!(
            over.len(),
            in_over_groups.count(),
            "every carta of a group over the ceiling, whatever its stage"
        );
    })
    .await;
}
