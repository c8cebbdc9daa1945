const START_APPLICATION = 'https://ivr.example.com/start.vxml';
const BILLING_APPLICATION = 'https://ivr.example.com/billing.vxml';

export interface FormItem {
  readonly application: string;
  readonly page: string;
  readonly form: string;
  readonly item: string;
  readonly behaviour: FormItemBehaviour;
}

export interface FormItemBehaviour {
  readonly promptSeconds: number;
  /** Chances that one answer is not understood, and that none comes before the timeout. */
  readonly nomatchShare: number;
  readonly noinputShare: number;
}

function formItem(application: string, page: string, form: string, item: string, behaviour: FormItemBehaviour): FormItem {
  return { application, page, form, item, behaviour };
}

const MAIN_MENU = formItem(START_APPLICATION, 'main.vxml', 'main_menu', 'selection', {
  promptSeconds: 16,
  nomatchShare: 0.08,
  noinputShare: 0.04,
});
const ACCOUNT_NUMBER = formItem(START_APPLICATION, 'account.vxml', 'account', 'account_number', {
  promptSeconds: 6,
  nomatchShare: 0.1,
  noinputShare: 0.03,
});
const PIN = formItem(START_APPLICATION, 'account.vxml', 'account', 'pin', {
  promptSeconds: 5,
  nomatchShare: 0.07,
  noinputShare: 0.02,
});
export const AGENT_QUEUE = formItem(START_APPLICATION, 'agent.vxml', 'transfer_agent', 'agent_queue', {
  promptSeconds: 4,
  nomatchShare: 0,
  noinputShare: 0,
});
const BILL_MENU = formItem(BILLING_APPLICATION, 'billing.vxml', 'billing', 'bill_menu', {
  promptSeconds: 12,
  nomatchShare: 0.05,
  noinputShare: 0.04,
});
const PAYMENT_AMOUNT = formItem(BILLING_APPLICATION, 'payment.vxml', 'billing', 'payment_amount', {
  promptSeconds: 7,
  nomatchShare: 0.09,
  noinputShare: 0.03,
});
const CONFIRM_PAYMENT = formItem(BILLING_APPLICATION, 'payment.vxml', 'billing', 'confirm_payment', {
  promptSeconds: 9,
  nomatchShare: 0.03,
  noinputShare: 0.02,
});

/** What a caller came for: the form items that get it done, then either information played or an agent. */
export interface Journey {
  readonly weight: number;
  readonly items: readonly FormItem[];
  readonly agentShare: number;
  readonly informationSeconds: readonly [number, number];
}

const JOURNEYS: Record<string, Journey> = {
  'opening hours': { weight: 20, items: [MAIN_MENU], agentShare: 0, informationSeconds: [25, 60] },
  balance: { weight: 25, items: [MAIN_MENU, ACCOUNT_NUMBER, PIN, BILL_MENU], agentShare: 0.08, informationSeconds: [15, 35] },
  payment: {
    weight: 40,
    items: [MAIN_MENU, ACCOUNT_NUMBER, PIN, BILL_MENU, PAYMENT_AMOUNT, CONFIRM_PAYMENT],
    agentShare: 0.06,
    informationSeconds: [10, 25],
  },
  'an agent straight away': { weight: 15, items: [MAIN_MENU], agentShare: 1, informationSeconds: [0, 0] },
};
export const JOURNEY_LIST: readonly Journey[] = Object.values(JOURNEYS);
