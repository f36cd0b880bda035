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
explain-bank-first-none = MDA analyses only projects already framed by the bank: no bank framing recorded
explain-bank-first-after = the bank framed the project on { DATE($framed) }, after { DATE($on) }
explain-decision-letter = MDA decides by a letter (ofício) of conformity or non-conformity naming the company and its CNPJ (art. 9 I–II): give its reference (letter)
explain-decision-grounds = a letter of non-conformity states what the analysis was based on (art. 9 II, "indicando em que foi baseada a análise"): give its grounds
explain-schedule-before-approval = the scheduled implementation end ({ DATE($end) }) is before the financing approval ({ DATE($on) })
explain-extension-once = the framing may be extended only once; it was asked on { DATE($first) }
explain-extension-late = requested on { DATE($on) }, after the 12 months since the industrial start ended ({ DATE($last) })
explain-extension-not-asked = the company has not asked for the extension (art. 11 §2 I)
explain-extension-decided = MDA already decided the extension on { DATE($day) }
explain-extension-reason = say why MDA grants or refuses the extension
explain-unframe-reason = say why MDA did not accept the justifications
