/**
 * The rehearsal against an Asaas sandbox account: what no document settles, tried once with the portal's own
 * client (issue 32). It finds or creates a test customer, makes a 2-parcel plan (totalValue first, value when Asaas
 * names it), reads the parcels, the digitable line, the Pix QR and the carnê PDF, lists webhooks and registers one
 * without and one with e-mail (removing both), removes the plan and reads a removed charge. Each step says what
 * Asaas answered and whether the portal's client accepts it; the verdict fails when a step the portal needs fails.
 * Used by `bun run check:asaas` and by a screen; it never runs against production (sandboxRefusal).
 */
import { addDaysIso, formatReais, todayIso } from '../core'
import { AsaasError, createAsaasClient, type FetchLike, isAmountRefusal } from './client'
import type { AsaasInstallment, AsaasPayment } from './types'

export const SANDBOX_URL = 'https://api-sandbox.asaas.com/v3'

export interface RehearsalStep {
	name: string
	/** ok: as the portal needs; warning: worth knowing, the portal copes; failed: the portal cannot work so. */
	result: 'ok' | 'warning' | 'failed'
	/** What Asaas answered, in a line. */
	answer: string
	/** Whether the portal's client accepts that answer (null when the step did not get that far). */
	accepted: boolean | null
	/** The portal depends on this step: its failure fails the rehearsal. */
	essential: boolean
}

export interface RehearsalResult {
	ok: boolean
	steps: RehearsalStep[]
	/** Which amount field the account takes on POST /installments. */
	installmentAmount: 'totalValue' | 'value' | null
	/** How the account answers a removed charge. */
	deletedCharge: '404' | 'deleted:true' | null
}

/**
 * Why this key or URL must not be rehearsed against, or null. Sandbox keys start with `$aact_hmlg_`; production
 * keys with `$aact_prod_` (older ones just `$aact_`): anything not marked `_hmlg_` is taken for production, since a
 * rehearsal creates and removes charges. The URL must be Asaas' sandbox (or a local stand-in on this machine).
 */
export function sandboxRefusal(apiKey: string, baseUrl: string): string | null {
	if (!apiKey) return 'Informe a chave de API do sandbox do Asaas (ASAAS_CHECK_KEY).'
	if (!apiKey.startsWith('$aact_hmlg_'))
		return 'A chave informada não é de sandbox (as do sandbox começam com $aact_hmlg_): o ensaio cria e remove cobranças e nunca roda em produção.'
	let url: URL
	try {
		url = new URL(baseUrl)
	} catch {
		return `Endereço do Asaas inválido: ${baseUrl}`
	}
	const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
	if (!local && !['api-sandbox.asaas.com', 'sandbox.asaas.com'].includes(url.hostname))
		return `O endereço ${url.origin} não é o sandbox do Asaas (${SANDBOX_URL}): o ensaio nunca roda em produção.`
	return null
}

/** A valid CPF, only ever used in sandboxes. */
const TEST_CPF = '24971563792'
const say = (e: unknown) => (e instanceof AsaasError ? `${e.message}${e.upstreamStatus ? ` (HTTP ${e.upstreamStatus})` : ''}` : String(e))

export async function rehearseAsaas(options: {
	apiKey: string
	baseUrl?: string
	fetch?: FetchLike
	/** Where the trial webhooks point (registered disabled and removed at once). */
	webhookUrl?: string
	/** The e-mail of the trial webhook with e-mail. */
	email?: string
	now?: () => Date
}): Promise<RehearsalResult> {
	const baseUrl = options.baseUrl ?? SANDBOX_URL
	const steps: RehearsalStep[] = []
	const result: RehearsalResult = { ok: false, steps, installmentAmount: null, deletedCharge: null }
	const step = (name: string, essential: boolean, result: RehearsalStep['result'], answer: string, accepted: boolean | null) =>
		steps.push({ name, essential, result, answer, accepted })
	const refusal = sandboxRefusal(options.apiKey, baseUrl)
	if (refusal) {
		step('Chave e ambiente', true, 'failed', refusal, null)
		return result
	}
	const asaas = createAsaasClient({
		baseUrl,
		apiKey: options.apiKey,
		fetch: options.fetch,
		userAgent: 'K-Licencas/ensaio',
		maxWaitMs: 5000
	})
	const clock = { now: options.now ?? (() => new Date()) }
	const reference = `ensaio-${clock.now().getTime()}`
	const hookBase = {
		name: 'Ensaio K-Licenças (removido em seguida)',
		url: options.webhookUrl ?? 'https://example.com/ensaio-k-licencas',
		enabled: false,
		sendType: 'SEQUENTIALLY' as const,
		events: ['PAYMENT_RECEIVED']
	}
	let plan: AsaasInstallment | null = null
	let parcels: AsaasPayment[] = []
	const hooks: string[] = []

	try {
		// The key: the cheap authenticated call the portal also uses to test a key.
		try {
			const list = await asaas.listWebhooks()
			step('Chave e webhooks cadastrados', true, 'ok', `chave aceita; ${list.totalCount} webhook(s) na conta`, true)
		} catch (e) {
			step('Chave e webhooks cadastrados', true, 'failed', say(e), e instanceof AsaasError && e.code === 'bad_response' ? false : null)
			return result
		}

		let customerId: string
		try {
			const found = await asaas.findCustomerByCpfCnpj(TEST_CPF)
			customerId =
				found?.id ?? (await asaas.createCustomer({ name: 'Cliente de teste K-Licenças', cpfCnpj: TEST_CPF, notificationDisabled: true })).id
			step('Cliente de teste', true, 'ok', `${found ? 'encontrado' : 'criado'}: ${customerId}`, true)
		} catch (e) {
			step('Cliente de teste', true, 'failed', say(e), null)
			return result
		}

		// 2 parcels of a total with a remainder: 10,00 + 10,01 when Asaas splits totalValue.
		const base = {
			customer: customerId,
			billingType: 'BOLETO' as const,
			installmentCount: 2,
			dueDate: addDaysIso(todayIso(clock), 30),
			description: 'Ensaio K-Licenças',
			paymentExternalReference: reference
		}
		try {
			plan = await asaas.createInstallment({ ...base, totalValue: 20.01 })
			result.installmentAmount = 'totalValue'
			step('Carnê de 2 parcelas', true, 'ok', `totalValue aceito (plano ${plan.id}, ${formatReais(plan.value)})`, true)
		} catch (e) {
			if (!isAmountRefusal(e, 'value')) {
				step('Carnê de 2 parcelas', true, 'failed', `totalValue recusado: ${say(e)}`, null)
				return result
			}
			try {
				plan = await asaas.createInstallment({ ...base, value: 10 })
				result.installmentAmount = 'value'
				step('Carnê de 2 parcelas', true, 'ok', `totalValue recusado (${say(e)}); value aceito (plano ${plan.id})`, true)
			} catch (again) {
				step('Carnê de 2 parcelas', true, 'failed', `totalValue e value recusados: ${say(again)}`, null)
				return result
			}
		}

		try {
			const raw = await asaas.listPayments({ installment: plan.id, limit: 100 })
			parcels = await asaas.listAllInstallmentPayments(plan.id)
			const order = raw.data.map((p) => p.installmentNumber).join(', ')
			const values = parcels.map((p) => formatReais(p.value)).join(' + ')
			const refs = [...new Set(parcels.map((p) => String(p.externalReference)))].join(', ')
			const right = parcels.length === 2 && parcels.every((p) => p.externalReference === reference)
			step(
				'Parcelas do carnê',
				true,
				right ? 'ok' : 'failed',
				`${parcels.length} parcela(s), listadas na ordem ${order || '-'}; valores ${values || '-'}; externalReference ${refs || '-'}`,
				right
			)
			if (!right) return result
		} catch (e) {
			step('Parcelas do carnê', true, 'failed', say(e), e instanceof AsaasError && e.code === 'bad_response' ? false : null)
			return result
		}

		const first = parcels[0]
		try {
			const field = await asaas.getIdentificationField(first.id)
			const right = /^\d{47}$/.test(field.identificationField)
			step('Linha digitável', true, right ? 'ok' : 'failed', `${field.identificationField.length} dígitos`, right)
		} catch (e) {
			step('Linha digitável', true, 'failed', say(e), null)
		}

		try {
			const qr = await asaas.getPixQrCode(first.id)
			const right = qr.payload.startsWith('000201') && qr.encodedImage.length > 0
			step(
				'QR Code Pix',
				true,
				right ? 'ok' : 'failed',
				`copia-e-cola de ${qr.payload.length} caracteres, válido até ${qr.expirationDate}`,
				right
			)
		} catch (e) {
			step('QR Code Pix', true, 'failed', `${say(e)} Cadastre uma chave Pix na conta Asaas.`, null)
		}

		try {
			const pdf = await asaas.getPaymentBook(plan.id)
			const right = new TextDecoder().decode(pdf.subarray(0, 5)) === '%PDF-'
			step('Carnê em PDF', true, right ? 'ok' : 'failed', right ? `PDF de ${pdf.length} bytes` : 'a resposta não é um PDF', right)
		} catch (e) {
			step('Carnê em PDF', true, 'failed', say(e), null)
		}

		try {
			const hook = await asaas.createWebhook(hookBase)
			hooks.push(hook.id)
			step('Webhook sem e-mail', false, 'warning', 'aceito (o portal envia e-mail mesmo assim)', true)
		} catch (e) {
			const named = e instanceof AsaasError && e.upstreamStatus === 400
			step('Webhook sem e-mail', false, named ? 'ok' : 'warning', `recusado: ${say(e)} (o portal sempre envia e-mail)`, null)
		}
		try {
			const hook = await asaas.createWebhook({ ...hookBase, email: options.email ?? 'ensaio@example.com' })
			hooks.push(hook.id)
			step('Webhook com e-mail', true, 'ok', `aceito (${hook.id})`, true)
		} catch (e) {
			step('Webhook com e-mail', true, 'failed', say(e), null)
		}
	} finally {
		for (const id of hooks.splice(0))
			await asaas.deleteWebhook(id).catch((e) => step('Remover webhook de ensaio', false, 'warning', `${id}: ${say(e)}`, null))
		if (plan) await removePlan(plan.id)
	}

	async function removePlan(planId: string) {
		try {
			const removed = await asaas.deleteInstallmentPendingPayments(planId)
			step('Remover as parcelas', true, 'ok', `${removed.deletedPayments.length} parcela(s) removida(s)`, true)
		} catch (e) {
			step('Remover as parcelas', true, 'failed', `${say(e)} Remova o carnê ${planId} pela tela do Asaas.`, null)
			return
		}
		if (!parcels[0]) return
		try {
			const read = await asaas.getPayment(parcels[0].id)
			result.deletedCharge = read.deleted ? 'deleted:true' : null
			step('Cobrança removida', true, read.deleted ? 'ok' : 'failed', read.deleted ? 'deleted: true' : `ainda ${read.status}`, read.deleted)
		} catch (e) {
			const gone = e instanceof AsaasError && e.upstreamStatus === 404
			if (gone) result.deletedCharge = '404'
			step('Cobrança removida', true, gone ? 'ok' : 'failed', gone ? '404 (removida)' : say(e), gone ? true : null)
		}
	}

	result.ok = steps.every((s) => !s.essential || s.result !== 'failed')
	return result
}

/** One line per step, for a terminal. */
export function rehearsalLines(r: RehearsalResult): string[] {
	const mark = { ok: '✔', warning: '!', failed: '✘' }
	const portal = (s: RehearsalStep) => (s.accepted === null ? '' : s.accepted ? ' — o portal aceita' : ' — o portal NÃO aceita')
	return [
		...r.steps.map((s) => `${mark[s.result]} ${s.name}: ${s.answer}${portal(s)}`),
		r.ok ? 'Resultado: a conta serve ao portal.' : 'Resultado: há passos de que o portal depende que falharam (veja ✘ acima).'
	]
}
