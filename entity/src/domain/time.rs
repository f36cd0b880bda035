//! The authorities' time zones. Timestamps are stored in UTC; a time shown to a person carries the offset of the
//! authority it concerns: America/Sao_Paulo (Brasília time) for MDA and the social-fuel programme, America/Cuiaba for
//! the CDAE/SEDEC of Mato Grosso and the banks reporting FCO there. Both zones kept daylight saving until 2019, so the
//! offset of an old timestamp is the one in force then (from the IANA database).

use chrono::{DateTime, FixedOffset, NaiveDate, Offset, TimeZone, Utc};

/// Whose clock a time is read on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Authority {
    /// MDA, in Brasília: America/Sao_Paulo.
    Mda,
    /// CDAE/SEDEC of Mato Grosso and the banks reporting FCO there: America/Cuiaba.
    Cdae,
}

impl Authority {
    /// The IANA zone.
    pub fn zone(self) -> chrono_tz::Tz {
        match self {
            Self::Mda => chrono_tz::America::Sao_Paulo,
            Self::Cdae => chrono_tz::America::Cuiaba,
        }
    }

    /// `t` on this authority's clock, with its offset then.
    pub fn local(self, t: DateTime<Utc>) -> DateTime<FixedOffset> {
        let zone = self.zone();
        let offset = zone.offset_from_utc_datetime(&t.naive_utc()).fix();
        t.with_timezone(&offset)
    }

    /// `t` for a person: `2024-03-01 08:01 (-03:00)`.
    pub fn show(self, t: DateTime<Utc>) -> String {
        self.local(t).format("%Y-%m-%d %H:%M (%:z)").to_string()
    }
}

/// The calendar day of `t` in Brasília.
pub fn brasilia_date(t: DateTime<Utc>) -> NaiveDate {
    Authority::Mda.local(t).date_naive()
}

/// The first instant after the day `d` in Brasília: `brasilia_date(t) <= d` exactly when `t` is before it (for a
/// statement that compares stored instants with a day).
pub fn brasilia_day_end(d: NaiveDate) -> DateTime<Utc> {
    let next = d.succ_opt().unwrap_or(d);
    let zone = Authority::Mda.zone();
    // Daylight saving began at midnight, so a day could start at 01:00.
    (0..3)
        .find_map(|h| {
            next.and_hms_opt(h, 0, 0)
                .and_then(|t| zone.from_local_datetime(&t).earliest())
        })
        .map_or_else(
            || next.and_hms_opt(3, 0, 0).unwrap_or_default().and_utc(),
            |t| t.with_timezone(&Utc),
        )
}

/// Whether a version of a fact recorded at `recorded_at` (none: before versions were kept, known from the start) and
/// superseded at `superseded_at` (none: in force) was the one known on `day`, in Brasília.
pub fn known_on(recorded_at: Option<DateTime<Utc>>, superseded_at: Option<DateTime<Utc>>, day: NaiveDate) -> bool {
    recorded_at.is_none_or(|t| brasilia_date(t) <= day) && superseded_at.is_none_or(|t| brasilia_date(t) > day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brasilia_day_ends_at_its_next_midnight_in_brasilia() {
        for d in ["2026-12-03", "2018-11-03", "2018-02-17", "2010-10-16"] {
            let day: NaiveDate = d.parse().expect("day");
            let end = brasilia_day_end(day);
            assert_eq!(brasilia_date(end - chrono::Duration::seconds(1)), day, "{d}");
            assert_eq!(brasilia_date(end), day.succ_opt().expect("next"), "{d}");
        }
        // Daylight saving began at midnight on 2018-11-04: that day began at 01:00 (-02:00), 03:00 UTC.
        assert_eq!(
            brasilia_day_end("2018-11-03".parse().expect("day")).to_rfc3339(),
            "2018-11-04T03:00:00+00:00"
        );
    }

    fn utc(y: i32, m: u32, d: u32, h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, h, 1, 0).single().expect("a time")
    }

    #[test]
    fn times_carry_the_offset_in_force_for_each_authority() {
        // After 2019 there is no daylight saving: Brasília is −03:00, Cuiabá −04:00.
        assert_eq!(Authority::Mda.show(utc(2025, 10, 9, 11)), "2025-10-09 08:01 (-03:00)");
        assert_eq!(Authority::Cdae.show(utc(2025, 10, 9, 11)), "2025-10-09 07:01 (-04:00)");
        // In January 2018 both kept summer time.
        assert_eq!(Authority::Mda.show(utc(2018, 1, 15, 11)), "2018-01-15 09:01 (-02:00)");
        assert_eq!(Authority::Cdae.show(utc(2018, 1, 15, 11)), "2018-01-15 08:01 (-03:00)");
        // 01:30 UTC is still the previous day in Brasília.
        assert_eq!(
            brasilia_date(utc(2025, 3, 2, 1)),
            NaiveDate::from_ymd_opt(2025, 3, 1).expect("date")
        );
    }
}
