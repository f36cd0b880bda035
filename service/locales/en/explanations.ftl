# Why a rule decided as it did (entity::rules::Explanation): one text per id, with its values.
# $what is project or carta; $needs lists the accepted stages and $count how many there are.

explain-wrong-stage = the { $what } is «{ $stage }» ({ $stage_code }); «{ $event }» needs it { $count ->
    [one] { $needs }
   *[other] one of { $needs }
}
explain-chamber-above = { MONEY($amount) } is at or above { MONEY($threshold) }: the CPACR chamber must give its opinion, not the bank
explain-chamber-below = { MONEY($amount) } is below { MONEY($threshold) }: the bank decides (unless it is a special demand, art. 14)
