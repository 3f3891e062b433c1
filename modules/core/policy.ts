/**
 * The security rules the server enforces, in one place: the login throttle and the password rules read them, and
 * the Segurança tab shows them, so what the screen says is what the server does.
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
