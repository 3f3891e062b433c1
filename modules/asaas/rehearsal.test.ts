import { afterAll, describe, expect, it } from 'bun:test'
import { rehearsalLines, rehearseAsaas, sandboxRefusal } from './rehearsal'
import { type AsaasStandinOptions, createAsaasStandin, startAsaasStandin } from './standin'

const KEY = '$aact_hmlg_ensaio'
const stops: (() => unknown)[] = []
afterAll(async () => {
	for (const stop of stops) await stop()
})

/** The rehearsal against an in-process stand-in in the given modes (the account has a Pix key unless told). */
async function rehearse(options: AsaasStandinOptions = {}, pixKey = true) {
	const standin = createAsaasStandin({ now: () => new Date('2031-01-10T12:00:00Z'), ...options })
	stops.push(standin.close)
	if (pixKey) standin.registerPixKey(KEY)
	const result = await rehearseAsaas({
		apiKey: KEY,
		baseUrl: 'http://localhost/v3',
		fetch: (url, init) => standin.handle(new Request(url, init)),
		now: () => new Date('2031-01-10T12:00:00Z')
	})
	const account = standin.accounts.get(KEY)
	const open = [...(account?.payments.values() ?? [])].filter((p) => !p.deleted)
	return { result, standin, webhooksLeft: account?.webhooks.size, openCharges: open.length }
}
const outcome = (r: Awaited<ReturnType<typeof rehearse>>['result']) => r.steps.map((s) => [s.name, s.result])

const STEPS = [
	'Chave e webhooks cadastrados',
	'Cliente de teste',
	'Carnê de 2 parcelas',
	'Parcelas do carnê',
	'Linha digitável',
	'QR Code Pix',
	'Carnê em PDF',
	'Webhook sem e-mail',
	'Webhook com e-mail',
	'Remover as parcelas',
	'Cobrança removida'
]

describe('the Asaas rehearsal against the stand-in in each mode', () => {
	it('default (reality): totalValue taken, parcels 10,00 + 10,01 in order with the reference, webhook e-mail required, 404 for a removed charge', async () => {
		const { result, webhooksLeft, openCharges } = await rehearse()
		expect(result.ok).toBe(true)
		expect(result.steps.map((s) => s.name)).toEqual(STEPS)
		expect(result.steps.filter((s) => s.result !== 'ok')).toEqual([])
		expect(result).toMatchObject({ installmentAmount: 'totalValue', deletedCharge: '404' })
		const parcels = result.steps.find((s) => s.name === 'Parcelas do carnê')
		expect(parcels?.answer).toMatch(
			/^2 parcela\(s\), listadas na ordem 2, 1; valores R\$\s10,00 \+ R\$\s10,01; externalReference ensaio-\d+$/
		)
		expect(result.steps.find((s) => s.name === 'Webhook sem e-mail')?.answer).toStartWith('recusado: Informe o e-mail')
		// It leaves nothing behind: no webhook, no open charge.
		expect([webhooksLeft, openCharges]).toEqual([0, 0])
		const lines = rehearsalLines(result)
		expect(lines).toHaveLength(STEPS.length + 1)
		expect(lines[2]).toStartWith('✔ Carnê de 2 parcelas: totalValue aceito')
		expect(lines.at(-1)).toBe('Resultado: a conta serve ao portal.')
	})

	it('an account that wants value: totalValue refused naming value, then value taken', async () => {
		const { result } = await rehearse({ modes: { installmentAmount: 'value' } })
		expect(result).toMatchObject({ ok: true, installmentAmount: 'value' })
		expect(result.steps[2].answer).toStartWith('totalValue recusado (Informe o valor de cada parcela (value).')
	})

	it('an account that wants totalValue (or either) takes it at once', async () => {
		for (const installmentAmount of ['totalValue', 'either'] as const) {
			const { result } = await rehearse({ modes: { installmentAmount } })
			expect(result).toMatchObject({ ok: true, installmentAmount: 'totalValue' })
		}
	})

	it('webhook e-mail optional: the webhook without e-mail is accepted (a warning), and removed', async () => {
		const { result, webhooksLeft } = await rehearse({ modes: { webhookEmail: 'optional' } })
		expect(result.ok).toBe(true)
		expect(result.steps.find((s) => s.name === 'Webhook sem e-mail')).toMatchObject({ result: 'warning', accepted: true })
		expect(webhooksLeft).toBe(0)
	})

	it('deleted:true for a removed charge is as good as a 404', async () => {
		const { result } = await rehearse({ modes: { deletedPayment: 'deleted-flag' } })
		expect(result).toMatchObject({ ok: true, deletedCharge: 'deleted:true' })
	})

	it('no Pix key on the account: the QR step fails with Asaas’ words, the verdict fails, the plan is still removed', async () => {
		const { result, openCharges } = await rehearse({}, false)
		expect(result.ok).toBe(false)
		expect(result.steps.find((s) => s.name === 'QR Code Pix')).toMatchObject({
			result: 'failed',
			answer: 'Não há nenhuma chave Pix disponível para receber cobranças. (HTTP 400) Cadastre uma chave Pix na conta Asaas.'
		})
		expect(outcome(result).filter(([, r]) => r === 'failed')).toEqual([['QR Code Pix', 'failed']])
		expect(openCharges).toBe(0)
	})

	it('a plan refused outright fails at that step and goes no further', async () => {
		const standin = createAsaasStandin({ now: () => new Date('2031-01-10T12:00:00Z') })
		stops.push(standin.close)
		const body = { errors: [{ code: 'invalid_customer', description: 'Cliente bloqueado.' }] }
		standin.failNext({ method: 'POST', path: '/installments', mode: 'status', status: 400, body })
		const fetch = (url: string, init: RequestInit) => standin.handle(new Request(url, init))
		const result = await rehearseAsaas({ apiKey: KEY, baseUrl: 'http://localhost/v3', fetch })
		expect(result.ok).toBe(false)
		expect(outcome(result)).toEqual([
			['Chave e webhooks cadastrados', 'ok'],
			['Cliente de teste', 'ok'],
			['Carnê de 2 parcelas', 'failed']
		])
	})
})

describe('sandbox only', () => {
	it('refuses a production key, an unmarked key and a production URL before any request', async () => {
		expect(sandboxRefusal('$aact_prod_000', 'https://api-sandbox.asaas.com/v3')).toContain('não é de sandbox')
		expect(sandboxRefusal('$aact_YTU5YTE0M', 'https://api-sandbox.asaas.com/v3')).toContain('não é de sandbox')
		expect(sandboxRefusal(KEY, 'https://api.asaas.com/v3')).toBe(
			'O endereço https://api.asaas.com não é o sandbox do Asaas (https://api-sandbox.asaas.com/v3): o ensaio nunca roda em produção.'
		)
		expect(sandboxRefusal(KEY, 'https://sandbox.asaas.com/api/v3')).toBeNull()
		let calls = 0
		const result = await rehearseAsaas({
			apiKey: '$aact_prod_000',
			fetch: async () => {
				calls++
				return new Response('{}')
			}
		})
		expect([result.ok, calls, result.steps[0].result]).toEqual([false, 0, 'failed'])
	})
})

describe('npx -y bun@1 run check:asaas', () => {
	/** The script as a vendor runs it, in its own process (the stand-in answers from this one). */
	const run = async (env: Record<string, string>) => {
		const proc = Bun.spawn([process.execPath, 'scripts/check-asaas.ts'], {
			cwd: new URL('../..', import.meta.url).pathname,
			env: { ...process.env, ...env },
			stdout: 'pipe',
			stderr: 'pipe'
		})
		const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
		return { code, out, err }
	}

	it('against a stand-in on a free port: one line per step and exit 0; without a Pix key exit 1; a production key is refused', async () => {
		const standin = startAsaasStandin()
		stops.push(standin.stop)
		standin.registerPixKey(KEY)
		const ok = await run({ ASAAS_CHECK_KEY: KEY, ASAAS_SANDBOX_URL: standin.url })
		expect(ok.code).toBe(0)
		const lines = ok.out.trim().split('\n')
		expect(lines[0]).toBe(`Ensaio no sandbox do Asaas (${standin.url})`)
		expect(lines.slice(1, -1).map((l) => l.split(':')[0])).toEqual(STEPS.map((s) => `✔ ${s}`))
		expect(lines.at(-1)).toBe('Resultado: a conta serve ao portal.')

		const noPix = await run({ ASAAS_CHECK_KEY: '$aact_hmlg_sem_pix', ASAAS_SANDBOX_URL: standin.url })
		expect(noPix.code).toBe(1)
		expect(noPix.out).toContain('✘ QR Code Pix: Não há nenhuma chave Pix disponível para receber cobranças.')

		const prod = await run({ ASAAS_CHECK_KEY: '$aact_prod_123', ASAAS_SANDBOX_URL: standin.url })
		expect(prod.code).toBe(1)
		expect(prod.err).toContain('não é de sandbox')
		expect(standin.accounts.has('$aact_prod_123')).toBe(false)
	})
})
