// A client written against the generated types only: if the schema changes a name, a nullability or an input, this
// stops compiling.
import type {
  BankByCodeQuery,
  DecideCartaMutationVariables,
  DraftCartaMutation,
  DraftCartaMutationVariables,
  FinancingsQuery,
} from "./generated";

export function draft(bankId: string): DraftCartaMutationVariables {
  return {
    input: {
      number: "FCO-0001/2026",
      bankId,
      borrowerDocument: "529.982.247-25",
      line: "RURAL",
      activity: "GRAINS",
      financedAmount: "2000000.00",
      municipalityCode: 5107909,
    },
  };
}

export function decide(cartaId: string): DecideCartaMutationVariables {
  return { input: { cartaId, decision: "FAVOURABLE", byChamber: true } };
}

export function cartaId(answer: DraftCartaMutation): string {
  return answer.draftFcoCarta.carta.id;
}

// A lookup by code may miss: null, the rest of the answer kept.
export function bankName(answer: BankByCodeQuery): string | undefined {
  return answer.bankByCode?.name;
}

export function amounts(answer: FinancingsQuery): string[] {
  return answer.financings.nodes.map((f) => f.amount);
}
