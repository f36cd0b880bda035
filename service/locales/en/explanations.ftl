# Why a rule decided as it did (entity::rules::Explanation): one text per id, with its values.
# $what is project or carta; $needs lists the accepted stages and $count how many there are.

explain-wrong-stage = the { $what } is «{ $stage }» ({ $stage_code }); «{ $event }» needs it { $count ->
    [one] { $needs }
   *[other] one of { $needs }
}
explain-chamber-above = { MONEY($amount) } is at or above { MONEY($threshold) }: the CPACR chamber must give its opinion, not the bank
explain-chamber-below = { MONEY($amount) } is below { MONEY($threshold) }: the bank decides (unless it is a special demand, art. 14)
# An act dated before the act it follows; $act names the earlier one.
explain-not-before = { DATE($on) } is before { $act ->
    [filing] the filing
    [mda-decision] MDA's decision
    [financing-approval] the financing approval
    [industrial-start] the industrial start
    [evaluation-start] the evaluation's start
    [evaluation] the evaluation
    [justifications-accepted] MDA's acceptance of the justifications
    [request] the request
    [submission] the submission
    [approval] the approval
    [presentation] the project's presentation to the bank
   *[other] the act it follows
} ({ DATE($earlier) })
explain-schedule-before-approval = the scheduled implementation end ({ DATE($end) }) is before the financing approval ({ DATE($on) })
explain-extension-once = the framing may be extended only once; it was asked on { DATE($first) }
explain-extension-late = requested on { DATE($on) }, after the 12 months since the industrial start ended ({ DATE($last) })
explain-extension-not-asked = the company has not asked for the extension (art. 11 §2 I)
explain-extension-decided = MDA already decided the extension on { DATE($day) }
explain-extension-reason = say why MDA grants or refuses the extension
explain-unframe-reason = say why MDA did not accept the justifications
explain-accept-justifications-reason = say why MDA accepts the justifications

## Clauses and lists. $first and $then are clauses rendered in the same language.
explain-joined = { $first } { $then }
list-and = and
explain-date = { DATE($day) }
explain-number = { $n }
explain-plain = { $text }
explain-quoted = { $text }
explain-sentence = { $text }.
explain-rule-quoted = { $code } ({ $why })
explain-override-project = a favourable act over rules the project violates: { $rules }; MDA may still decide so, saying why (overrideReason), and the override is kept in the history
explain-override-carta = a favourable decision over rules the carta violates: { $rules }; the chamber (or the bank) may still decide so, saying why (overrideReason), and the override is kept in the history
explain-ceiling-group = the borrower's group already has { MONEY($others) } approved or contracted: { $why }
explain-confirmed = confirmed by { $by } on { $when }
explain-confirmed-note = confirmed by { $by } on { $when }: { $note }
flag-group-ceiling = the economic group's cartas { $cartas } break the ceiling; { $first }: { $why }

## How a deadline was counted (Lei 9.784/1999, art. 66; Lei estadual nº 7.692/2002). $law, $count and $end are clauses.
count-note = { $law }: { $count }{ $end }.
count-law-federal = Lei 9.784/1999, art. 66
count-law-state = Lei estadual nº 7.692/2002 (MT), art. 87, in consecutive days (a validity or reporting term, not a procedural deadline counted in business days), the end moved as Lei 9.784/1999, art. 66 §1 moves it
count-days = { $days } days from { DATE($start) } (first day excluded, last included) end on { DATE($nominal) }
count-months = { $months } months from { DATE($start) }, date to date, end on { DATE($nominal) }
count-months-short = { $months } months from { DATE($start) }, date to date, end on { DATE($nominal) } (the month has no day { $day }, so its last day counts, art. 66 §3)
count-business-day = , a business day
count-business-day-open = , a business day ({ $day } recorded { $office ->
    [FEDERAL] the federal offices
    [MATO_GROSSO] the offices of Mato Grosso
   *[BANKING] the banks
} open that day)
count-moved = ; { $skipped }, so the deadline moves to the next business day, { DATE($due) } (art. 66 §1)
count-skipped = { DATE($day) } is { $why }
count-hours-before = { $hours } hours before { $at }, counted as hours: { $due }.
count-hours-after = { $hours } hours after { $at }, counted as hours: { $due }.
nonbusiness-saturday = a Saturday
nonbusiness-sunday = a Sunday
nonbusiness-ponto = { $day }, a ponto facultativo; office closed unless recorded open
nonbusiness-bank-holiday = { $day }, a bank holiday
nonbusiness-early-closing = { $day }, when the office closes before its normal hour
nonbusiness-closure = a day without office hours ({ $reason })
# A named day: $key is made of its English name ($name).
explain-holiday = { $key ->
   *[other] { $name }
}

## Where a deadline stands. $count is how it was counted, $tail what happened; $days a count of days.
deadline-note = { $count } { $tail }
deadline-met = Met on { DATE($day) }.
deadline-done-late = Done on { DATE($day) }, { $days ->
    [one] { $days } day
   *[other] { $days } days
} late.
deadline-overdue = Not done; overdue by { $days ->
    [one] { $days } day
   *[other] { $days } days
} on { DATE($on) }.
deadline-pending = Not done yet; { $days ->
    [one] { $days } day
   *[other] { $days } days
} left on { DATE($on) }.
instrument-not-yet = { $name } took effect on { DATE($from) }; { DATE($day) } is before it
instrument-revoked = { $name } was revoked by { $by }; the instrument that replaced it is not modelled, so its rules do not apply to a request of { DATE($day) }

## Social fuel (IN MDA nº 2/2005).
sf-filed-on = filed on { DATE($day) }: { $why }
sf-not-filed-on = not filed; on { DATE($day) }: { $why }
sf-not-filed = The project has not been filed.
sf-decision-by-bank = The bank analyses under a technical-cooperation agreement: its own financing deadline applies (art. 9, sole §), not MDA's 30 days.
sf-eval-from-schedule-before-start = Counted from the scheduled implementation end, { DATE($end) }, which came before the industrial start on { DATE($start) } (art. 11: whichever comes first; a late start does not move the deadline).
sf-eval-from-schedule-not-started = Counted from the scheduled implementation end, { DATE($end) }; operation has not started.
sf-eval-from-schedule = { $why } { $note }
sf-eval-extended = { $count } The 6 months ended on { DATE($six) }; the extension MDA granted on { DATE($granted) } (art. 11 §2) keeps the framing until { DATE($until) }, and the evaluation is judged against that day, as SF-EXTENSION-12M is.
sf-eval-not-started = Industrial operation has not started and the scheduled implementation end has not passed.
sf-seal-not-started = No conforming external evaluation yet.
sf-seal-by-start = { $note } Read by art. 11 §1 instead (30 days from the industrial start on { DATE($start) }), it would have ended on { DATE($due) }; the status follows art. 11 I, because the request needs the conformity the evaluation finds after that.
sf-extension-refused = MDA refused the extension on { DATE($day) }: { $reason }
sf-extension-refused-no-reason = MDA refused the extension on { DATE($day) }: no reason recorded
sf-extension-undecided = Asked for on { DATE($day) }; MDA has not decided it (art. 11 §2: the framing "poderá" be kept, so MDA decides).
sf-extension-not-asked = No extension asked for.
sf-extension-in-hearing = Granted during the non-conformity hearing (art. 11 §2, "poderá ser mantido", read where the framing is at stake): the framing is kept to the end of the 12 months, and MDA accepts the justifications or unframes the project by then. { $note }
sf-due-after-revocation = Due on { DATE($due) }, after { $instrument } was revoked by { $by } (in force until { DATE($until) }): a deadline of the revoked instrument falling after its revocation is not applicable.
sf-due-after-revocation-done = Due on { DATE($due) }, after { $instrument } was revoked by { $by } (in force until { DATE($until) }): a deadline of the revoked instrument falling after its revocation is not applicable; the act came on { DATE($act) }.
sf-share-year = year { $year }: { $share }
sf-share-semi-arid = { $share }; { $note }

## FCO Rural (IN CDAE/MT 2019). Amounts are MONEY, days DATE; $activity and $line are the instruction's Portuguese names.
fco-submitted-on = submitted on { DATE($day) }: { $why }
fco-not-submitted-on = not submitted; on { DATE($day) }: { $why }
fco-ceiling = this carta and the approved and contracted cartas of the borrower's group add up to { MONEY($exposure) } (ceiling { MONEY($ceiling) })
fco-chamber-bank-alone = { MONEY($amount) } is at or above { MONEY($threshold) } but the bank decided alone
fco-chamber-opinion-given = { MONEY($amount) } is at or above { MONEY($threshold) }: the chamber gave its opinion
fco-chamber-opinion-needed = { MONEY($amount) } is at or above { MONEY($threshold) }: needs the chamber's opinion
fco-chamber-special-demand = { MONEY($amount) } is below { MONEY($threshold) }, and the chamber analysed it as a special demand (art. 14)
fco-chamber-bank-decides = { MONEY($amount) } is below { MONEY($threshold) }: the bank decides
fco-attendance-present = the bank attended the meeting
fco-attendance-absent = the bank was absent: its proposals are not considered
fco-attendance-unrecorded = attendance not recorded
fco-no-meeting-outcome = no chamber meeting
fco-weaned-none = no weaned cattle
fco-weaned = { $heads } weaned head across the borrower's group (at most { $max })
fco-sire-ratio = { $dams } dams and { $sires } sires: at most { $ratio } dams per sire allows { $allowed }
fco-sire-ratio-not-beef = art. 6 I c concerns beef cattle; this carta is { $activity }
fco-sire-ratio-no-dams = no dams without breed registration
fco-sire-ratio-counted = { $ratio } ({ $registered } registered sire(s) bought{ $unregistered ->
    [0] {""}
   *[other] ; { $unregistered } bought without the registration of art. 6 I a do not count
}, { $own } the producer's own shown in the project)
fco-sire-ratio-counted-no-own = { $ratio } ({ $registered } registered sire(s) bought{ $unregistered ->
    [0] {""}
   *[other] ; { $unregistered } bought without the registration of art. 6 I a do not count
}, none of the producer's own stated)
fco-pedigree-no-sires = no purchased sires
fco-pedigree-met-dairy = every purchased sire is PO, LA or CEIP (dairy: art. 7 I a)
fco-pedigree-met-beef = every purchased sire has PO/RGD, LA or CEIP registration (art. 6 I a)
fco-pedigree-unregistered-dairy = sires without the registration art. 7 I a asks (PO, LA or CEIP): { $sires }
fco-pedigree-unregistered-beef = sires without the registration art. 6 I a asks (PO with RGD, LA or CEIP): { $sires }
fco-boar-none = no boars
fco-boar-ratio = { $boars } boar(s) for { $sows } sows: { $how ->
    [ai] artificial insemination
   *[natural] natural service
} allows at most 1 boar per { $ratio } sows, so at most { $allowed } boar(s)
fco-boar-not-pronaf = art. 8 §5 limits the boars family farmers (Pronaf) buy collectively; this carta is on the { $line } line
fco-boar-family = (art. 8 §5: a family farmer's boars, bought collectively or not, are held to the limit)
fco-boar-natural-read = (the carta does not state artificial insemination: natural service is read)
fco-sow-age-within = a sow born on { DATE($born) } is { $min } months old on { DATE($youngest) } and { $max } months old on { DATE($oldest) }; on { DATE($on) } she is within
fco-sow-age-outside = a sow born on { DATE($born) } is { $min } months old on { DATE($youngest) } and { $max } months old on { DATE($oldest) }; on { DATE($on) } she is outside
fco-sow-ages-unstated = { $terms }; { $count } sow item(s) state no age: art. 8 §3 III asks sows of { $min } to { $max } months
fco-sow-ages-outside = { $terms }; sows aged { $ages } months are outside { $min } to { $max }
fco-not-sow-retention = not a sow-retention carta
fco-term-not-stated = term or grace period not stated
fco-term = term { $term } months (at most { $max_term }) including grace { $grace } months (at most { $max_grace })
fco-pantanal-dams = { $dams } dams for the producer
fco-pantanal-dams-others = { $producer } dams for the producer ({ $dams } on this carta, { $others } on its other Pantanal cartas)
fco-pantanal-met = { $terms }; { $counted }, at most { $max } per producer
fco-pantanal-over = { $counted }: more than { $max } per producer (art. 9)
fco-not-pantanal = not a Pantanal dam-retention carta
fco-machine-none = no used machines
fco-machine-year-missing = the year of manufacture is not stated (art. 11 conditions the financing on it)
fco-machine-year-invalid = { $year } is not a year of manufacture
fco-machine-age = made in { $year }, its use counted from { DATE($start) } (only the year is stated): on { DATE($on) } it has { $months } month(s) of use, at most { $max } (until { DATE($limit) })
fco-operating-not = not a stand-alone operating credit
fco-operating-allowed = stand-alone operating credit for { $activity }, which allows it
fco-operating-refused = stand-alone operating credit for { $activity }; only fish farming, sow retention and weaned cattle allow it
fco-classify-item = { $item } is { $class }, should be { $expected }
fco-classify-met = { $count } item(s) classified
fco-classify-wrong = { $items }

## FCO deadlines.
fco-validity-bank-approval = Approved by the bank below the chamber's threshold (art. 2 §3): the text gives the bank's approval no life of its own; read as the CDAE's, its 120 days count from the bank's approval.
fco-validity-not-approved = The carta is not approved.
fco-validity-presented = The project was presented to the bank, the act art. 3 sole § asks for.
fco-validity-contracted-within = Contracted on { DATE($day) }, within the 120 days: the project was presented to the bank by then.
fco-validity-contracted-after = Contracted on { DATE($day) }, after the 120 days; art. 3 sole § asks when the project was presented to the bank, which is not recorded (presentFcoProject, or the list's column "Data de Apresentação do Projeto").
fco-bb-from-last = From the last 60-day report, received on { DATE($day) }: { $note }
fco-bb-none-since = No 60-day report received since the instruction took effect on { DATE($since) } (the monthly lists of art. 2 §5 are another report): the first was due 60 days after it. { $note }
fco-bb-no-report = No report received yet.
fco-monthly-list-due = the list of { $month } is due by the end of the following month, { DATE($end) } (the instrument names no day; Fomento's reading)
fco-monthly-list-due-moved = the list of { $month } is due by the end of the following month, { DATE($end) } (the instrument names no day; Fomento's reading), moved to the next business day, { DATE($due) }
fco-monthly-list-note = { $law }; { $note }

# A bank's monthly list (entity/src/rules/fco/listed.rs, service/src/ceiling.rs): its findings on its rows, stored as flags.
report-flag-outside-year = row { $row }: { $what ->
        [approved] approved
       *[contracted] contracted
    } on { DATE($on) }, outside the year declared up to { DATE($end) } ({ $month })
report-flag-presented-late = row { $row }: the project was presented to the bank on { DATE($on) }, after the approval expired on { DATE($due) } ({ $note })
report-flag-contracted-late = row { $row }: contracted on { DATE($on) }, after the 120 days ended on { DATE($due) } ({ $note }), and the row does not say when the project was presented to the bank (column "{ $column }")
report-flag-chamber-never = row { $row }: { MONEY($amount) } is at or above { MONEY($threshold) } but the carta was never submitted to the CPACR chamber
report-flag-chamber-unfavourable = row { $row }: { MONEY($amount) } is at or above { MONEY($threshold) } without a favourable chamber opinion
report-flag-duplicate = carta { $carta } appears on rows { $first } and { $second } of report { $report }; row { $applied } is applied
report-flag-ceiling = the borrower's group holds { MONEY($total) } approved and contracted, over the { MONEY($ceiling) } ceiling

# Why the flag pass resolved a flag (service/src/deadline_flags/write.rs `settle`).
flag-resolved-said = no longer called for on { DATE($on) }: { $said }
flag-resolved-gone = no longer called for on { DATE($on) }: its subject no longer has this deadline or rule

fco-no-meeting = No chamber meeting assigned.
fco-72h-received = { $note } Received by SEDEC at { $at }.
fco-result-from-opinion = From the CPACR's opinion: { $note }
fco-result-from-opinion-ref = From the CPACR's opinion ({ $reference }): { $note }
fco-result-from-meeting = From the meeting's start (no opinion recorded): { $note }
fco-result-sent = { $note } Results sent at { $at }.
fco-result-no-meeting = The chamber decided but no chamber meeting is recorded for this carta: the 72 hours count from the meeting (art. 3); place the carta on its meeting's agenda.
fco-result-no-meeting-on = The chamber decided on { DATE($day) } but no chamber meeting is recorded for this carta: the 72 hours count from the meeting (art. 3); place the carta on its meeting's agenda.
fco-result-bank-decided = Decided by the bank (below the chamber's threshold): there is no chamber result to send.
fco-result-undecided = On a chamber meeting's agenda; the chamber has not decided yet.
fco-result-undecided-no-meeting = Not decided yet; no chamber meeting assigned.

## FCO checklist items, contract conditions and the articles on the carta's own facts. $basis is a legal basis, written
## by LEGAL for the language; $what and $concerns are clauses (the fco-what-* and fco-concerns-* texts).
fco-checklist-pending = checklist item, not yet confirmed: { $what }
fco-checklist-not-applies = does not apply to this carta ({ $activity }, { $line }): { LEGAL($basis) } concerns { $concerns }
fco-what-any = a document or a human check
fco-what-seed-origin = proof of the seeds' or seedlings' origin before the money is released
fco-what-gta = the animal transit permit (GTA) and INDEA/MT registration before the money for animals is released
fco-what-gta-swine = the property's INDEA/MT registration before the project is contracted (art. 8 §2), and the animal transit permit (GTA) proving the health and existence of the animals bought
fco-what-gta-dairy = INDEA/MT registration and the animal transit permit (GTA) before the money is released (art. 7 §2)
fco-what-gta-beef = the animal transit permit (GTA) proving the animals' health and existence before the money is released (art. 6 §3)
fco-what-professional = a qualified professional named in the carta, if it finances embryo transfer or fixed-time AI
fco-what-swine-origin = no swine from auctions, fairs or shows; breeders from GRSC-certified farms
fco-what-green = environmental consent, approved management plan and validated guidelines
fco-what-seed-mapa = seed and seedling suppliers registered with MAPA, with the seeds' conformity term at release
fco-what-swine-eligible = the borrower is a rural producer or their cooperative, or a Pronaf producer within their enquadramento
fco-what-swine-family = the family-farm project's technical and economic viability and its qualified technical assistance (responsible for the farms' biosecurity)
fco-what-swine-report = the project author's technical report (laudo) on the farms' infrastructure before animals are bought, or the project budgets renovating, recovering or building it
fco-what-pantanal-plain = the farm lies in the Pantanal plain (planície pantaneira)
fco-what-small-animals = technical and economic viability, qualified technical assistance and INDEA/MT registration before contracting
fco-concerns-any = every carta
fco-concerns-perennial-forestry = perennial crops and forestry
fco-concerns-cattle-swine = cattle and swine bought with the financing
fco-concerns-embryo = embryo transfer and fixed-time AI in beef and dairy cattle
fco-concerns-swine = swine
fco-concerns-verde = the FCO Verde line
fco-concerns-forestry = forestry
fco-concerns-sow-retention = the sow-retention line
fco-concerns-swine-family = family-farm (Pronaf) swine projects
fco-concerns-pantanal = the Pantanal dam-retention line
fco-concerns-small-animals = sheep, goats, crocodilians, ostriches and other small animals
fco-condition-ia = the artificial-insemination information in the carta (artificialInsemination)
fco-condition-indea-swine = the property's registration with INDEA/MT (the FCO-GTA checklist item, confirmed)
fco-condition-indea-small = the registration with INDEA/MT (the FCO-SMALL-ANIMALS checklist item, confirmed)
# One unmet condition of a refused contract: $code is the rule, $basis its article, $what a clause.
fco-condition-unmet = { $code } ({ LEGAL($basis) }): { $what }
fco-contracted-without = contracted on { DATE($day) } without { $what }: the contract is conditioned on it ({ LEGAL($basis) }, "fica condicionada")
fco-template-early = submitted on { DATE($day) }, within the { $days } days after the instruction's publication on { DATE($published) } (until { DATE($until) }): the template was not yet the only model banks could accept (art. 2 §2)
fco-template-pending = checklist item, not yet confirmed: the carta is on the template; banks accept only it from { DATE($from) } on, { $days } days after the publication on { DATE($published) } (art. 2 §2)
fco-ia-none = no genetic improvement of beef or dairy cattle in this carta
fco-ia-stated = the carta states the insemination information: { $how ->
    [ai] artificial insemination
   *[natural] natural service
}
fco-ia-unstated = genetic improvement is contracted only once the carta states the artificial-insemination information (artificialInsemination)
fco-special-none = not filed as a special demand
fco-special-chamber = a special demand the CPACR/CDAE analysed, exceptionally, whatever its amount
fco-special-bank = a special demand decided by the bank: art. 14 gives special demands to the CPACR and CDAE
fco-special-pending = a special demand: the CPACR/CDAE analyses it, exceptionally, whatever its amount
fco-pasture-pending = checklist item, not yet confirmed: the soil analysis on which the pasture's acidity and phosphorus correction is based
fco-pasture-none = no pasture formation, renovation or recovery among the items
fco-global-pending = checklist item, not yet confirmed: the group's { MONEY($exposure) } exceeds the ceiling; the carta may stand only within an exception listed under "assistência global permitida no fundo" in the FCO programming in force (name it when confirming)
fco-global-within = the group is within the ceiling: no exception is needed
fco-predominance-no-values = no items with values yet
fco-predominance-investment = investment credit (art. 17 I): fixed and semi-fixed investments are { MONEY($invest) } of { MONEY($total) } ({ PERCENT($share) }), the rest operating costs
fco-predominance-operating = operating credit: fixed and semi-fixed investments are { MONEY($invest) } of { MONEY($total) } ({ PERCENT($share) }), not most of the budget, so art. 17 I does not class it as investment credit; the article defines the class and refuses nothing (stand-alone operating credit is judged by FCO-OPERATING-ONLY, art. 16)

## FCO-RESUBMIT (art. 3 sole §). $what lists the fco-resubmit-field texts.
fco-resubmit-reformulated = reformulates a carta with an unfavourable opinion
fco-resubmit-changed = reformulates a carta with an unfavourable opinion: its { $what } changed
fco-resubmit-field = { $field ->
    [value] value
    [term] term
    [grace] grace
    [line] line
    [activity] activity
    [municipality] municipality
    [special-demand] special demand
    [existing-sires] existing sires
    [artificial-insemination] artificial insemination
    [professional] professional
   *[items] items
}
fco-resubmit-no-items = lists no items where the carta it resubmits listed { $count }: a resubmission that states no project is not reformulated (art. 3 sole §)
fco-resubmit-unchanged = not reformulated: the same value, term, grace, line, activity, stated facts and items as the carta it resubmits, which had an unfavourable opinion (art. 3 sole §)
fco-resubmit-not-unfavourable = resubmits a carta that was not unfavourable (it is «{ $stage }»)
fco-resubmit-not-unfavourable-unknown = resubmits a carta that was not unfavourable (it is «unknown»)
fco-resubmit-none = not a resubmission

## FCO-AMENDMENT (art. 15). Amounts MONEY, percentages PERCENT; $since, $over_ceiling and $crosses are yes or no;
## $what is an fco-amend-what clause, $letter the article's letter.
fco-amend-what = { $kind ->
    [swap] a swap for a related item
    [municipality] a change of municipality
   *[size] a change of producer size
}
fco-amend-along-exempt = { $what } needs no new approval (art. 15 { $letter })
fco-amend-along-reduction = { $what } with a reduction from { MONEY($old) } to { MONEY($new) } needs no new approval (art. 15 b and { $letter })
fco-amend-along-increase = { $what } that raises the value is an increase (art. 15 a and { $letter }): { $why }
fco-amend-values-unstated = old or new value not stated
fco-amend-not-increase = declared an increase, but the value goes from { MONEY($old) } to { MONEY($new) }
fco-amend-no-approved = no approved value to measure the increase against
fco-amend-increase = { MONEY($new) } is { PERCENT($increase) } over the approved { MONEY($approved) }{ $since ->
    [yes] {" "}(from { MONEY($old) } now; increases since the approval add up)
   *[no] {""}
} (limit { PERCENT($limit) }){ $over_ceiling ->
    [yes] , and the group would pass the { MONEY($ceiling) } ceiling
   *[no] {""}
}{ $crosses ->
    [yes] , and it reaches the chamber's threshold of { MONEY($threshold) }: approved below it, by the bank, the carta now needs the CPACR's opinion (art. 2 §3)
   *[no] {""}
}
fco-amend-reduction = a reduction from { MONEY($old) } to { MONEY($new) } needs no new approval
fco-amend-not-reduction = declared a reduction, but the value goes from { MONEY($old) } to { MONEY($new) }
fco-amend-swap-exempt = a swap for a related item needs no new approval
fco-amend-municipality-exempt = a change among the listed properties needs no new approval
fco-amend-size-exempt = a change of producer size needs no new approval
fco-amend-other = any other change needs a new approval
fco-amend-municipality-unlisted = a change of municipality is exempt only if the other properties are listed in the carta (art. 15 d); { $listed ->
    [no] the properties of the new municipality are not listed in the carta
   *[unstated] whether the properties of the new municipality are listed in the carta is not stated
}
fco-amend-none = no amendments
fco-amend-handled = handled as art. 15 says: { $items }
fco-amend-handled-item = { DATE($day) }: { $why }
fco-amend-wrong = amendment of { DATE($day) } recorded as { $recorded ->
    [yes] needing a new approval
   *[no] needing none
}, but { $why }: it is { $needs ->
    [yes] needing a new approval
   *[no] needing none
}

## Social fuel's checked rules (IN MDA nº 2/2005). $missing lists clauses; a person's text ($reason, $content) is
## placed as written.
sf-document = «{ $name }» ({ $code })
sf-request-lacks = the request lacks { $missing }
sf-documents-all = all six annex-I documents received
sf-documents-missing = not filed yet; missing { $missing }
sf-documents-filed-without = filed on { DATE($day) } without { $missing }
sf-bank-first-met = framed by the bank on { DATE($framed) }, filed on { DATE($filed) }
sf-bank-first-before = filed on { DATE($filed) }, before the bank's framing on { DATE($framed) }
sf-bank-first-none = filed on { DATE($filed) } without the bank's framing
sf-bank-first-not-filed = framed by the bank on { DATE($framed) }; not filed yet
sf-bank-first-pending = the bank has not framed the project yet
sf-plan-staff = the staff, with CVs and roles (I)
sf-plan-contract = the outsourcing contract, asked in addition to the staff when outsourced (II)
sf-plan-coverage = the coverage area (III)
sf-plan-farmers = the number of farmers assisted (IV)
sf-plan-methodology = the methodology and activities (V)
sf-plan-none-filed = filed on { DATE($day) } with no technical-assistance plan recorded: the plan is a minimum criterion of the framing (art. 2) with the contents of art. 6 sole §
sf-plan-none = no technical-assistance plan recorded yet: a minimum criterion of the framing (art. 2, art. 6)
sf-plan-lacks = the plan lacks { $missing } (art. 6 sole §)
sf-plan-confirmed = plan complete (art. 6 sole § I–V); compatibility with the acquisitions confirmed by { $by }
sf-plan-unconfirmed = plan complete (art. 6 sole § I–V); compatibility with the acquisitions not yet confirmed
sf-changes-start-unreported = industrial operation started on { DATE($day) }; the company has not yet reported the start of its activity with its documents (art. 12); { $count } other change notice(s) filed
sf-changes-filed = { $count } change notice(s) filed (art. 12)
sf-changes-none = no change to report: no industrial start and no change notice (art. 12)
sf-letter-signed = , signed by { $by }
sf-letter-undecided = MDA has not decided yet
sf-letter-none = decided on { DATE($day) } with no letter recorded: art. 9 I–II asks for an ofício naming the company and its CNPJ
sf-letter-conformity = decided on { DATE($day) } by letter { $letter } of conformity{ $signed }, addressed to the company and its CNPJ on record (art. 9 I)
sf-letter-nonconformity = decided on { DATE($day) } by letter { $letter } of non-conformity{ $signed }, addressed to the company and its CNPJ on record, on the grounds: { $grounds } (art. 9 II)
sf-letter-no-grounds = decided on { DATE($day) } by letter { $letter } of non-conformity that states no grounds: art. 9 II asks the letter to say what the analysis was based on
sf-schedule-started-late = started on { DATE($day) }, after the scheduled { DATE($scheduled) }
sf-schedule-not-started-by = not started by the scheduled { DATE($scheduled) }
sf-schedule-bank-accepted = the bank accepted the delay on { DATE($day) }
sf-schedule-bank-accepted-by = the bank accepted the delay on { DATE($day) } ({ $by })
sf-schedule-mda-accepted-on = { $bank } and MDA accepted it on { DATE($day) } (art. 10 §2)
sf-schedule-mda-accepted = { $bank } and MDA accepted it (art. 10 §2)
sf-schedule-mda-not-accepted = { $bank }, but MDA has not accepted it (art. 10 §2)
sf-schedule-mda-without-bank = MDA's acceptance is recorded without the bank's: art. 10 §2 accepts a delay only once the bank has
sf-schedule-none-accepted = no delay was accepted by the bank and MDA (art. 10 §2)
sf-schedule-presented = the company presented its physical-financial schedule to MDA on { DATE($day) } (art. 10 caput)
sf-schedule-not-presented = the financing was approved on { DATE($day) } and the company has not yet presented its physical-financial schedule to MDA (art. 10 caput)
sf-schedule-not-started = industrial operation has not started
sf-schedule-started-met = operation started on { DATE($day) } with the minimum share met
sf-schedule-started-unmet = operation started on { DATE($day) } without the minimum share
sf-unframing-heard = the company filed its justifications and contestations on { DATE($day) }: { $content }
sf-unframing-not-heard = no justifications of the company recorded
sf-unframing-notified = MDA notified the bank on { DATE($day) } (art. 11 II)
sf-unframing-notified-ref = MDA notified the bank on { DATE($day) }, { $reference } (art. 11 II)
sf-unframing-not-notified = MDA's notice to the bank is not recorded yet (art. 11 II)
sf-unframing-published = MDA updated its public database on { DATE($day) } (art. 11 II)
sf-unframing-published-ref = MDA updated its public database on { DATE($day) }, { $reference } (art. 11 II)
sf-unframing-not-published = the update of MDA's public database is not recorded yet (art. 11 II)
sf-unframed = unframed on { DATE($day) }: { $reason }
sf-no-reason = no reason recorded
sf-no-finding = no finding recorded
# What the external evaluation found when MDA does not say what (stored without a text, rendered when read).
sf-finding-default = external evaluation found non-conformity
sf-justifications-accepted = MDA accepted the company's justifications on { DATE($day) } (art. 11 II): the framing is kept; { $reason }
sf-nonconformity-found = the external evaluation found non-conformity on { DATE($day) } ({ $finding }); MDA hears the company's justifications and contestations and unframes the project only if it does not accept them (art. 11 II)
sf-keeps-framing = the project keeps its framing
sf-representation = { $kind }: { $name }
sf-representation-none = no proposal with an identified and agreed farmers' representation
sf-proposal-term = { $term ->
    [term] term
    [price] purchase price
    [adjustment] price adjustment
    [delivery] delivery conditions
    [safeguards] safeguards
   *[agreement] representation's agreement
}
sf-proposal-lacks = proposal { $n } lacks { $missing }
sf-proposal-none = no contract proposal
sf-proposals-complete = { $count } proposal(s) state all six terms
sf-share-calc = computed exactly as family-farm cost ÷ total annual cost; see SF-SHARE-MIN for the terms
# $what is own (own production, art. 3 §2) or sharecrop (the producer's sharecropping part, art. 3 §3).
sf-priced-none = no { $what ->
    [own] own production
   *[sharecrop] sharecropping part
} in the year
sf-priced-no-price = { $what ->
    [own] own production in the year, but no purchase gives it a price: it is valued at the period's average price paid to third parties (art. 3 §2)
   *[sharecrop] sharecropping part in the year, but no purchase gives it a price: it is valued at the average price paid to the partner (art. 3 §3)
}
sf-priced = { $what ->
    [own] own production valued at the period's average price paid to third parties (art. 3 §2)
   *[sharecrop] sharecropping part valued at the average price paid to the partner (art. 3 §3)
}
sf-perennial-none = no perennial contract in the year
sf-perennial-official = perennial contracts counted by area × a productivity coefficient of MAPA, Conab or Embrapa (art. 4 sole §)
sf-plant-invalid = the plant's municipality code is invalid
sf-company-br-pending = checklist item, not yet confirmed: the company is constituted under Brazilian law (its articles and CNPJ registration) and holds the biodiesel production project
sf-no-promotion = a human check of the company's promotion; nothing recorded

## SF-SHARE-MIN (art. 3, 4): the share and how each term was valued. Amounts MONEY, percentages PERCENT, kilograms,
## hectares and prices per kilogram NUMBER; $terms lists the sf-term-* clauses; $place is an sf-share-place clause.
sf-share-place = { $semi_arid ->
    [yes] the semi-arid
   *[no] the { $region } region
}
sf-share-none = no feedstock acquisitions recorded; the minimum for { $place } is { PERCENT($min) } ({ $source })
sf-share-unpriced = the share cannot be judged against the minimum of { PERCENT($min) } for { $place } ({ $source }): { $terms }
sf-share = family-farm share { MONEY($family) } ÷ { MONEY($total) } = { PERCENT($share) } against a minimum of { PERCENT($min) } for { $place } ({ $source }, in force on { DATE($on) }); terms: { $terms }
sf-supplier = { $kind ->
    [family] family farmer
    [cooperative] family-farm cooperative
    [other] other third party
    [own] own production
   *[sharecrop] sharecropping
}
sf-term-perennial = { $n }. { $supplier }, perennial: { NUMBER($area) } ha × { NUMBER($coef) } kg/ha = { NUMBER($expected) } kg × R$ { NUMBER($unit) }/kg = { MONEY($value) } (art. 4)
sf-term-own-unpriced = { $n }. own production: { NUMBER($kg) } kg, but no purchase from third parties in the period gives the average price art. 3 §2 values it at
sf-term-own = { $n }. own production: { NUMBER($kg) } kg × average third-party price R$ { NUMBER($unit) }/kg = { MONEY($value) } (art. 3 §2)
sf-term-sharecrop-unpriced = { $n }. sharecropping, producer's part: { NUMBER($kg) } kg, but no purchase from the partner is recorded; art. 3 §3 values it at the average price paid to the partner and gives no other price
sf-term-sharecrop = { $n }. sharecropping, producer's part: { NUMBER($kg) } kg × R$ { NUMBER($unit) }/kg (average price paid to the partner) = { MONEY($value) } (art. 3 §3)
sf-term-bought = { $n }. { $supplier }: { MONEY($cost) } paid for { NUMBER($kg) } kg
sf-coefficient-source = { $supplier }: { $source }
sf-no-source = no source stated
sf-perennial-unofficial = the productivity coefficient must be published by MAPA, Conab or Embrapa (art. 4 sole §): { $sources }
# Which delimitation of the semi-arid was read: $member is yes or no, $source or $name the delimitation.
sf-semi-arid = { $member ->
    [yes] in
   *[no] not in
} the semi-arid by { $source } (in force on { DATE($on) })
sf-semi-arid-nearest = { $member ->
    [yes] in
   *[no] not in
} the semi-arid by the nearest later delimitation, { $name } (in force from { DATE($from) }): the one in force on { DATE($on) }, Portaria MI nº 89/2005, is not available here

## Guards of the lifecycle (entity/src/rules/lifecycle.rs). $count is a deadline's counting note, a clause.
explain-extension-needs = the extension needs { $unmet }
explain-extension-needs-justification = a justification
explain-extension-needs-purchases = the contracted purchases honoured
explain-extension-needs-assistance = technical assistance for the contracted farmers
explain-unframe-stage = the project is «{ $stage }» ({ $stage_code }): art. 11 II unframes a project only after the external evaluation found non-conformity and MDA did not accept the company's justifications and contestations
explain-unframe-extension-kept = MDA granted the extension on { DATE($granted) } during the hearing: the framing is kept until { DATE($kept) } (art. 11 §2, 12 months since the industrial start); unframe on that day at the earliest
explain-contract-not-presented = the 120 days to present the project to the bank ended on { DATE($due) } ({ $count }), and no presentation is recorded: record when it was presented (`presentFcoProject`) if that was in time
explain-contract-over-approved = the contract's { MONEY($amount) } exceeds the approved { MONEY($approved) }: an increase is an amendment (`amendFcoCarta`, `VALUE_INCREASE`), exempt up to 10 % of the approved value within the ceiling (art. 15 a) and otherwise needing a new approval; record it first
explain-presented-after-contract = { DATE($on) } is after the contract ({ DATE($contract) }): the project is presented before it is contracted
explain-approval-expired = the approval expired on { DATE($due) }: { $count }
explain-presented-in-time = the project was presented to the bank on { DATE($on) }, within the 120 days: the approval did not lapse
explain-approval-valid-until = the approval is valid until { DATE($due) }: { $count }

## A rule parameter that cannot be read (entity/src/rules/params.rs `ParamError`). $problem is a clause; $why what the
## unit requires (whole, positive, at-most-million, not-negative, percent, centavos).
param-not-applicable = not applicable on { DATE($on) }: no version of parameter { $key } is in force on that date (the rule was not yet or no longer in force)
param-pending = pending: { $problem }; the rule is judged once a usable version is recorded
param-not-in-force = no version of parameter { $key } is in force on { DATE($on) }
param-unknown-key = { $key } is not a rule parameter; known keys are listed by `ruleParameters`
param-wrong-unit = parameter { $key } is in { $expected }, not { $given }
param-bad-value = { $value } is not a non-negative decimal
param-out-of-unit = { $value } { $unit } must be { $why ->
    [whole] a whole number
    [positive] positive
    [at-most-million] at most 1,000,000
    [not-negative] not negative
    [percent] between 0 and 100
    [centavos] in reais with at most two decimals (centavos)
   *[other] { $why }
}
param-unusable = the version of { $key } in force on { DATE($on) } is { $value } { $unit }, which is not usable: it must be { $why ->
    [whole] a whole number
    [positive] positive
    [at-most-million] at most 1,000,000
    [not-negative] not negative
    [percent] between 0 and 100
    [centavos] in reais with at most two decimals (centavos)
   *[other] { $why }
}
param-bad-period = the version ends ({ DATE($to) }) before it starts ({ DATE($from) })

## History notes Fomento writes itself (financing_transition.note_id, migration 61), rendered when read.
history-expired = FCO-VALIDITY-120D: the 120 days to present the project to the bank ended on { DATE($due) } ({ $count }), and no presentation is recorded.
history-amended = FCO-AMENDMENT: { $why }
history-override = override of { $codes }: { $why }
history-resubmits = reformulates carta { $number }
history-joined = { $first }; { $then }
history-declared-in-list = declared in the monthly list of { $month }

## History notes an act writes beside a person's own words (kept as written, in $why, $content, $reference, $by,
## $reason): rendered when read, in the reader's language.
history-because = { $what }: { $why }
history-document-received = { $document } received on { DATE($day) }
history-bank-framing = bank's framing letter of { DATE($on) }{ $analysed ->
    [yes] , analysed by the bank
   *[other] { "" }
}
history-justifications = justifications and contestations filed on { DATE($day) }: { $content }
history-bank-notice = MDA notified the bank on { DATE($day) }: { $reference }
history-public-update = MDA updated its public database on { DATE($day) }: { $reference }
history-statement = stated facts corrected from { DATE($day) }: { $changes }: { $reason }
history-change = `{ $field }` { $old } → { $new }
history-value-unstated = not stated
history-value-yes = yes
history-value-no = no
history-value-plain = { $value }
history-agenda = on the agenda of the chamber's meeting of { DATE($day) } { $time } ({ $zone })
history-schedule = schedule end { $old ->
    [none] (none)
   *[other] { DATE($old) }
} → { DATE($end) }{ $presented ->
    [none] { "" }
   *[other] , presented to MDA on { DATE($presented) }
}{ $accepted ->
    [none] { "" }
   *[other] , delay accepted by MDA on { DATE($accepted) } after the bank
}
history-delay-bank-acceptance = the bank accepted a delay of the schedule ending { DATE($end) } on { DATE($day) }: { $by }

## Why a later list resolved a list's flags (resolved by report:N).
flag-resolved-superseded = report { $old } was superseded by report { $new } of the same bank and month
