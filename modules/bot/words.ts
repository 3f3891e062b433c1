import type { PixKeyCheck } from '../core'

/**
 * The bot's words and how the monitor shows a session, as plain code without the schema library: the WhatsApp
 * pages read them on first load, so they do not carry zod (issue 15). Re-exported by model.ts.
 */
/** The session steps of 3-billing-messaging §4, with their labels. */
export const BOT_STEP_LABELS = {
	welcome: 'Boas-vindas',
	awaiting_cnpj: 'Aguardando CNPJ',
	menu: 'Menu principal',
	consulting: 'Consultando',
	generating_boleto: 'Gerando boleto'
} as const
export type BotStep = keyof typeof BOT_STEP_LABELS

/** A 13-digit Brazilian phone as +CC (DD) NNNNN-NNNN (§5); other numbers as given. */
export function formatSessionPhone(phone: string): string {
	const d = phone.replace(/\D/g, '')
	if (d.length === 13) return `+${d.slice(0, 2)} (${d.slice(2, 4)}) ${d.slice(4, 9)}-${d.slice(9)}`
	if (d.length === 12) return `+${d.slice(0, 2)} (${d.slice(2, 4)}) ${d.slice(4, 8)}-${d.slice(8)}`
	return phone
}

/** 'Agora', 'Nmin atrás', 'Nh atrás', 'Nd atrás' (§2 'Bot WhatsApp'). */
export function botRelativeTime(instant: string | null, now: Date): string {
	if (!instant) return '—'
	const min = Math.floor(Math.max(0, now.getTime() - Date.parse(instant)) / 60_000)
	if (min < 1) return 'Agora'
	if (min < 60) return `${min}min atrás`
	const hours = Math.floor(min / 60)
	return hours < 24 ? `${hours}h atrás` : `${Math.floor(hours / 24)}d atrás`
}

/** Option 4 of the bot (and the preview on /configuracoes-bot): the vendor's PIX key with its type. */
export function pixMessage(check: PixKeyCheck | null, vendor: string): string {
	if (!check?.valid) return 'A chave PIX para pagamento ainda não foi configurada. Digite *5* para falar com um atendente.'
	return [
		'💠 *Pagar por PIX*',
		'',
		`Chave PIX (${check.label}): ${check.formatted}`,
		`Favorecido: ${vendor}`,
		'',
		'Depois de pagar, envie o comprovante por aqui.',
		'',
		'Envie *0* para ver o menu de novo.'
	].join('\n')
}
