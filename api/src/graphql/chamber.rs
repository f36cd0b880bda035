//! The CPACR chamber's meetings in the graph: `ChamberMeeting` (reachable by `node(id:)` and from a carta's
//! `chamberMeeting`) and the mutations that record a meeting, its attendance, its agenda and when its result went
//! out, all calls of `service::chamber`.

use super::{
    db,
    error::{Served, gql},
    ids::{self, NodeKind},
    loader,
    loaders::BankLoader,
    scalars::DateTime,
    types::{financing::FcoCarta, objects::Bank},
};
use async_graphql::{Context, ID, InputObject, Object, Result, SimpleObject};
use entity::chamber_meeting;
use service::{chamber, lifecycle::Act};

/// A meeting of the CPACR chamber (CDAE/MT 2019, arts. 2–3).
#[derive(Clone, Debug)]
pub struct ChamberMeeting(pub service::visible::Seen<chamber_meeting::Model>);

/// A bank's attendance at a meeting (art. 2 §6: an absent bank's proposals are not considered).
#[derive(SimpleObject, Clone, Debug)]
pub struct ChamberAttendance {
    /// The bank.
    pub bank: Bank,
    /// Whether it was present.
    pub present: bool,
}

/// A meeting of the CPACR chamber (CDAE/MT 2019, arts. 2–3).
#[Object]
impl ChamberMeeting {
    /// Opaque global ID.
    pub async fn id(&self) -> ID {
        ids::encode(NodeKind::ChamberMeeting, self.0.id)
    }

    /// When the meeting starts (Cuiabá time); cartas reach SEDEC 72 hours before.
    async fn starts_at(&self) -> DateTime {
        DateTime::cdae(self.0.starts_at)
    }

    /// When the result went to the banks (72 hours after, art. 3).
    async fn results_sent_at(&self) -> Option<DateTime> {
        self.0.results_sent_at.map(DateTime::cdae)
    }

    /// Notes.
    async fn notes(&self) -> Option<&str> {
        self.0.notes.as_deref()
    }

    /// When the CPACR gave its opinion on the meeting's cartas (Cuiabá time): the 72 hours of the result report count
    /// from it (art. 3, "após a obtenção de parecer"); from the meeting's start while it is not recorded.
    async fn opinion_at(&self) -> Option<DateTime> {
        self.0.opinion_at.map(DateTime::cdae)
    }

    /// The reference of the CPACR's opinion or of the meeting's minutes.
    async fn opinion_reference(&self) -> Option<&str> {
        self.0.opinion_reference.as_deref()
    }

    /// The banks recorded as having received the result report (art. 3: the banks that presented proposals).
    async fn results_sent_to(&self, ctx: &Context<'_>) -> Result<Vec<Bank>> {
        let rows = chamber::results_sent_to(db(ctx), self.0.id).await.served(ctx)?;
        let banks = loader::<BankLoader>(ctx)
            .load_many(rows.iter().map(|r| r.bank_id))
            .await
            .map_err(gql)?;
        Ok(rows
            .into_iter()
            .filter_map(|r| {
                banks
                    .get(&r.bank_id)
                    .cloned()
                    .map(|b| Bank(service::visible::public(b)))
            })
            .collect())
    }

    /// The banks' attendance, as recorded.
    async fn attendance(&self, ctx: &Context<'_>) -> Result<Vec<ChamberAttendance>> {
        let rows = chamber::attendance(db(ctx), self.0.id).await.served(ctx)?;
        let banks = loader::<BankLoader>(ctx)
            .load_many(rows.iter().map(|a| a.bank_id))
            .await
            .map_err(gql)?;
        Ok(rows
            .into_iter()
            .filter_map(|a| {
                banks.get(&a.bank_id).cloned().map(|b| ChamberAttendance {
                    bank: Bank(service::visible::public(b)),
                    present: a.present,
                })
            })
            .collect())
    }

    /// The cartas on its agenda, in the order they reached SEDEC, as they now stand: those it decided in an approval
    /// cycle an amendment later closed too (see their `approvalCycles`). A bank sees its own cartas only
    /// (`agendaSize` counts them all).
    async fn cartas(&self, ctx: &Context<'_>) -> Result<Vec<FcoCarta>> {
        let rows = chamber::agenda(db(ctx), self.0.id).await.served(ctx)?;
        Ok(service::visible::of_banks(&super::caller(ctx), rows)
            .into_iter()
            .map(FcoCarta)
            .collect())
    }

    /// How many cartas its agenda holds, every bank's (those of earlier approval cycles too).
    async fn agenda_size(&self, ctx: &Context<'_>) -> Result<i32> {
        let rows = chamber::agenda(db(ctx), self.0.id).await.served(ctx)?;
        Ok(i32::try_from(rows.len()).unwrap_or(i32::MAX))
    }
}

/// `scheduleChamberMeeting`'s input.
#[derive(InputObject, Debug)]
pub struct ScheduleChamberMeetingInput {
    /// When it starts.
    pub starts_at: DateTime,
    /// Notes.
    pub notes: Option<String>,
}

/// `recordChamberAttendance`'s input.
#[derive(InputObject, Debug)]
pub struct RecordChamberAttendanceInput {
    /// The meeting's global ID.
    pub meeting_id: ID,
    /// The banks present (global IDs).
    #[graphql(default)]
    pub present_bank_ids: Vec<ID>,
    /// The banks absent (global IDs).
    #[graphql(default)]
    pub absent_bank_ids: Vec<ID>,
}

/// `placeFcoCartaOnAgenda`'s input.
#[derive(InputObject, Debug)]
pub struct PlaceFcoCartaOnAgendaInput {
    /// The carta's global ID (submitted, at or above the chamber's threshold).
    pub carta_id: ID,
    /// The meeting's global ID.
    pub meeting_id: ID,
    /// When the carta reached SEDEC (72 hours before the meeting, art. 2 §7).
    pub received_at: DateTime,
}

/// `recordChamberResultsSent`'s input.
#[derive(InputObject, Debug)]
pub struct RecordChamberResultsSentInput {
    /// The meeting's global ID.
    pub meeting_id: ID,
    /// When the result report went to the banks (not before the meeting, nor before the opinion recorded).
    pub sent_at: DateTime,
    /// The banks that received it (global IDs), added to those recorded before.
    #[graphql(default)]
    pub bank_ids: Vec<ID>,
}

/// `recordChamberOpinion`'s input.
#[derive(InputObject, Debug)]
pub struct RecordChamberOpinionInput {
    /// The meeting's global ID.
    pub meeting_id: ID,
    /// When the CPACR gave its opinion (at the meeting, not before it starts).
    pub given_at: DateTime,
    /// The reference of the opinion or of the meeting's minutes.
    pub reference: String,
}

/// What a change of a meeting answers: the meeting.
#[derive(SimpleObject)]
pub struct ChamberMeetingPayload {
    /// The meeting, as it now stands.
    pub meeting: ChamberMeeting,
}

/// What placing a carta on an agenda answers: the carta (ask for its `deadlines`) and the meeting.
#[derive(SimpleObject)]
pub struct FcoCartaAgendaPayload {
    /// The carta.
    pub carta: FcoCarta,
    /// The meeting.
    pub meeting: ChamberMeeting,
}

fn bank_keys(ids: &[ID], field: &str) -> Result<Vec<i64>> {
    ids.iter().map(|id| ids::arg(id, NodeKind::Bank, field)).collect()
}

/// The chamber's mutations.
#[derive(Default)]
pub struct ChamberMutation;

#[Object]
impl ChamberMutation {
    /// Schedules a meeting of the CPACR chamber.
    async fn schedule_chamber_meeting(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "When it starts, and notes.")] input: ScheduleChamberMeetingInput,
    ) -> Result<ChamberMeetingPayload> {
        let m = chamber::schedule(db(ctx), input.starts_at.0, input.notes)
            .await
            .served(ctx)?;
        super::guard::audit_target(ctx, &ids::encode(NodeKind::ChamberMeeting, m.id));
        Ok(ChamberMeetingPayload {
            meeting: ChamberMeeting(service::visible::public(m)),
        })
    }

    /// Records which banks attended a meeting (FCO-ATTENDANCE).
    async fn record_chamber_attendance(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The meeting and the banks present and absent.")] input: RecordChamberAttendanceInput,
    ) -> Result<ChamberMeetingPayload> {
        let meeting = ids::arg(&input.meeting_id, NodeKind::ChamberMeeting, "input.meetingId")?;
        let present = bank_keys(&input.present_bank_ids, "input.presentBankIds")?;
        let absent = bank_keys(&input.absent_bank_ids, "input.absentBankIds")?;
        let m = chamber::record_attendance(db(ctx), meeting, &present, &absent)
            .await
            .served(ctx)?;
        Ok(ChamberMeetingPayload {
            meeting: ChamberMeeting(service::visible::public(m)),
        })
    }

    /// Puts a submitted carta on a meeting's agenda with the time it reached SEDEC (FCO-72H-BEFORE).
    async fn place_fco_carta_on_agenda(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta, the meeting and when the carta reached SEDEC.")] input: PlaceFcoCartaOnAgendaInput,
    ) -> Result<FcoCartaAgendaPayload> {
        let carta = ids::arg(&input.carta_id, NodeKind::FcoCarta, "input.cartaId")?;
        let meeting = ids::arg(&input.meeting_id, NodeKind::ChamberMeeting, "input.meetingId")?;
        let act = Act::by(super::caller(ctx));
        let c = chamber::place_on_agenda(db(ctx), &act, carta, meeting, input.received_at.0)
            .await
            .served(ctx)?;
        let m = chamber::meeting(db(ctx), "input.meetingId", meeting)
            .await
            .served(ctx)?;
        Ok(FcoCartaAgendaPayload {
            carta: FcoCarta(super::seen(ctx, c)?),
            meeting: ChamberMeeting(service::visible::public(m)),
        })
    }

    /// Records when a meeting's result report went to the banks (FCO-72H-RESULT).
    async fn record_chamber_results_sent(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The meeting and when its result went out.")] input: RecordChamberResultsSentInput,
    ) -> Result<ChamberMeetingPayload> {
        let meeting = ids::arg(&input.meeting_id, NodeKind::ChamberMeeting, "input.meetingId")?;
        let banks = bank_keys(&input.bank_ids, "input.bankIds")?;
        let act = Act::by(super::caller(ctx));
        let m = chamber::record_results_sent(db(ctx), &act, meeting, input.sent_at.0, &banks)
            .await
            .served(ctx)?;
        Ok(ChamberMeetingPayload {
            meeting: ChamberMeeting(service::visible::public(m)),
        })
    }

    /// Records the CPACR's opinion on a meeting's cartas, when it was given and its (or the minutes') reference: the
    /// 72 hours of the result report count from it (FCO-72H-RESULT, art. 3).
    async fn record_chamber_opinion(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The meeting, when the opinion was given and its reference.")]
        input: RecordChamberOpinionInput,
    ) -> Result<ChamberMeetingPayload> {
        let meeting = ids::arg(&input.meeting_id, NodeKind::ChamberMeeting, "input.meetingId")?;
        let m = chamber::record_opinion(db(ctx), meeting, input.given_at.0, &input.reference)
            .await
            .served(ctx)?;
        Ok(ChamberMeetingPayload {
            meeting: ChamberMeeting(service::visible::public(m)),
        })
    }
}
