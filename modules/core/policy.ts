/**
 * The security rules the server enforces, in one place: the login throttle, the password rules and the limits on what a
 * click can set off read them, and the Segurança tab shows them, so what the screen says is what the server does.
 */

/** Failed sign-ins (and wrong current passwords on Alterar Senha), counted over a sliding window. */
export const LOGIN_LIMITS = {
	windowMinutes: 15,
	/** Failures of one address on one account before that address waits for the window. */
	perAccountAndAddress: 5,
	/** Failures of one address on any accounts before it waits for the window. */
	perAddress: 20,
	/**
	 * Failures of one account from all addresses after which an address that has failed recently waits 1 s, 2 s,
	 * 4 s… (doubling with each further failure, up to `accountMaxDelaySeconds`) after the account's last failure.
	 * An address without recent failures is never delayed by the account: its owner still signs in at once.
	 */
	accountSlowdownAfter: 10,
	accountMaxDelaySeconds: 5 * 60
} as const

export const PASSWORD_RULES = {
	minLength: 6,
	maxLength: 256
} as const

/**
 * WhatsApp messages a person's click sends (a carnê, a parcel, the test sends), counted over sliding windows in the
 * database: WhatsApp bans numbers that send bursts to strangers. The representative's count is of the sends of their
 * carnês whoever clicks (they leave through their number, or the portal's).
 */
export const WHATSAPP_SEND_LIMITS = {
	perUserPerMinute: 6,
	perUserPerDay: 100,
	perRepresentativePerMinute: 6,
	perRepresentativePerDay: 100,
	/**
	 * Sends through one number are also spaced by WHATSAPP_PAUSE_MS (plus up to as much again), like the automatic
	 * ones; a send whose turn is further away than this is refused rather than kept waiting.
	 */
	maxQueueSeconds: 30
} as const

/** Credit self-purchases of one representative: each makes a PIX charge on the vendor's Asaas account. */
export const PURCHASE_LIMITS = {
	/** Purchases created and not yet paid or expired; one of the same quantity is shown again instead of a new charge. */
	maxOpen: 3,
	perHour: 5,
	perDay: 10
} as const
