/**
 * The Evolution rehearsal a vendor runs before relying on their WhatsApp server (`bun run check:evolution`, and
 * "Ensaio completo" on the notification settings' Teste tab): the version, the connection, one text to the
 * operator's own number, the webhook body for that version, and whether the send came back as an echo. Each step
 * says what Evolution answered and whether the portal's client accepts it. The live webhook is read, never changed.
 */
import { type EvolutionClient, EvolutionError, webhookBody, webhookPlan } from './client'

export interface RehearsalStep {
	step: string
	/** The portal cannot work without it: a failure makes the verdict "reprovado". */
	required: boolean
	ok: boolean
	/** What Evolution answered, short. */
	answer: string
	/** What it means for the portal, or what to do. */
	note: string
}

export interface RehearsalResult {
	ok: boolean
	verdict: string
	steps: RehearsalStep[]
}

export interface RehearsalInput {
	/** The operator's own number: one text is sent to it. */
	phone: string
	/** The portal's webhook address (…/api/whatsapp/webhook), to show the body the portal sets; a placeholder otherwise. */
	webhookUrl?: string | null
	/** True when the send's id came back as messages.upsert fromMe; absent where no webhook reaches the caller. */
	echoSeen?: (messageId: string) => Promise<boolean>
}

const TEXT = 'Ensaio do portal K-Licenças: mensagem de teste, pode ignorar.'
const failed = (e: unknown) => (e instanceof EvolutionError ? e.message : String((e as Error)?.message ?? e))

/** `client`: the portal passes its gateway (which records the send as its own); check:evolution makes one. */
export async function rehearseEvolution(client: EvolutionClient, input: RehearsalInput): Promise<RehearsalResult> {
	const steps: RehearsalStep[] = []
	const add = (s: RehearsalStep) => steps.push(s)

	let version: string | null = null
	try {
		version = (await client.serverInfo()).version
		const plan = webhookPlan(version)
		add({
			step: 'Versão',
			required: true,
			ok: plan.served,
			answer: `GET / → versão ${version}`,
			note: plan.served
				? plan.headers
					? 'Atendida: o segredo do webhook vai no cabeçalho.'
					: 'Atendida: esta versão não envia cabeçalhos, o segredo do webhook vai na URL (?token=).'
				: plan.message
		})
	} catch (e) {
		add({
			step: 'Versão',
			required: true,
			ok: false,
			answer: failed(e),
			note: 'Confira EVOLUTION_CHECK_URL: deve ser o endereço do servidor da Evolution.'
		})
	}

	try {
		const { state } = await client.connectionState()
		add({
			step: 'Conexão',
			required: true,
			ok: state === 'open',
			answer: `connectionState → ${state}`,
			note:
				state === 'open'
					? 'O WhatsApp da instância está conectado.'
					: 'Conecte o WhatsApp da instância (leia o QR code no gerenciador da Evolution).'
		})
	} catch (e) {
		add({ step: 'Conexão', required: true, ok: false, answer: failed(e), note: 'Confira a chave (apikey) e o nome da instância.' })
	}

	let messageId: string | null = null
	try {
		const sent = await client.sendText(input.phone, TEXT)
		messageId = sent.messageId
		add({
			step: 'Envio de texto',
			required: true,
			ok: true,
			answer: `sendText → 201, id ${sent.messageId}, para ${sent.remoteJid}`,
			note: 'O cliente do portal leu o id da mensagem (é por ele que o portal reconhece os próprios envios).'
		})
	} catch (e) {
		add({
			step: 'Envio de texto',
			required: true,
			ok: false,
			answer: failed(e),
			note: 'Confira o número (EVOLUTION_CHECK_PHONE, com 55 e DDD) e a conexão.'
		})
	}

	const plan = version ? webhookPlan(version) : null
	try {
		const current = await client.findWebhook()
		const url = input.webhookUrl ?? 'https://SEU-PORTAL/api/whatsapp/webhook'
		const body =
			plan?.served === true
				? webhookBody(plan, {
						url: plan.headers ? url : `${url}?token=<segredo>`,
						headers: { 'x-webhook-token': '<segredo>' },
						events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'],
						enabled: true
					})
				: null
		add({
			step: 'Webhook',
			required: false,
			ok: plan?.served === true,
			answer: `webhook/find → ${current ? `${current.enabled ? 'ativo' : 'inativo'}, ${current.url}` : 'nenhum configurado'}`,
			note: body
				? `Não alterado. O portal configura com: POST /webhook/set ${JSON.stringify(body)}`
				: 'Sem versão atendida, o portal não sabe qual corpo usar.'
		})
	} catch (e) {
		add({
			step: 'Webhook',
			required: false,
			ok: false,
			answer: failed(e),
			note: 'O portal não conseguiu ler o webhook atual da instância.'
		})
	}

	if (!messageId) {
		add({ step: 'Eco do envio', required: false, ok: false, answer: 'sem envio', note: 'Sem mensagem enviada, não há eco a esperar.' })
	} else if (!input.echoSeen) {
		add({
			step: 'Eco do envio',
			required: false,
			ok: true,
			answer: 'não verificado daqui',
			note: 'Só o portal recebe o webhook: rode o "Ensaio completo" na aba Teste das Notificações para ver se o envio volta como eco.'
		})
	} else {
		const seen = await input.echoSeen(messageId)
		add({
			step: 'Eco do envio',
			required: false,
			ok: true,
			answer: seen ? 'voltou como messages.upsert (fromMe)' : 'não voltou como messages.upsert',
			note: seen
				? 'Esta Evolution devolve os envios da API (issue #1340): o portal os reconhece como próprios e não pausa o bot.'
				: 'Normal: a Evolution costuma avisar só com send.message. Se o bot não responder a ninguém, confira o webhook.'
		})
	}

	const ok = steps.every((s) => s.ok || !s.required)
	return {
		ok,
		verdict: ok
			? 'Aprovado: o portal consegue usar esta Evolution API.'
			: `Reprovado: ${steps
					.filter((s) => s.required && !s.ok)
					.map((s) => s.step)
					.join(', ')} falhou. Corrija e rode o ensaio de novo.`,
		steps
	}
}

/** One line per step, as check:evolution prints them. */
export function rehearsalLines(result: RehearsalResult): string[] {
	return [...result.steps.map((s) => `${s.ok ? '✔' : s.required ? '✘' : '!'} ${s.step}: ${s.answer} — ${s.note}`), result.verdict]
}
