/** The simulated contact the sandbox phone plays by default (a number reserved for fiction: 555-01xx). */
export const SANDBOX_CONTACT = '14155550142';
