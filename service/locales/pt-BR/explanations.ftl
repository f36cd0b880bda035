# Por que uma regra decidiu como decidiu (entity::rules::Explanation): um texto por id, com seus valores.
# $what é project ou carta; $needs lista as etapas aceitas e $count quantas são.

explain-wrong-stage = { $what ->
    [carta] a carta está
   *[project] o projeto está
} «{ $stage }» ({ $stage_code }); «{ $event }» exige que { $count ->
    [one] esteja { $needs }
   *[other] esteja em uma destas etapas: { $needs }
}
explain-chamber-above = { MONEY($amount) } é igual ou superior a { MONEY($threshold) }: o parecer é da câmara CPACR, não do banco
explain-chamber-below = { MONEY($amount) } é inferior a { MONEY($threshold) }: o banco decide (salvo demanda especial, art. 14)
