import { useStore } from '@nanostores/react'
import { BellRing, PlugZap, Save, Send, Wifi, WifiOff } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { useFormFromData } from '../../lib/hooks'
import { PageRoot } from '../../components/PageRoot'
import { type TabItem, Tabs } from '../../components/Tabs'
import { ErrorPanel, Field, PasswordInput, TextField } from '../../components/ui'
import { type ApiResponse, call, errorText } from '../../lib/api'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { $configuracoes } from '../../lib/settings'
import { toast } from '../../stores/toast'
import { RehearsalSteps } from '../../components/RehearsalSteps'
import { WhatsappPhoneField } from '../../components/WhatsappPhoneField'
// The API's own checks, from core's zod-free typed-input.ts: this page does not load the schema library (issue 15).
import { whatsappMessageProblems, whatsappPhoneProblem } from '../../../../modules/core'
import { NotificationTypes } from './NotificationTypes'

/** The gateway's connection, refreshed every 30 s (2-administration §9). */
const $status = routeStore('GET /api/evolution-api/status', undefined, { revalidateInterval: 30_000 })

type Tab = 'api' | 'notificacoes' | 'teste'
const TABS: TabItem<Tab>[] = [
	{ id: 'api', label: 'API', icon: <PlugZap className="size-4" /> },
	{ id: 'notificacoes', label: 'Notificações', icon: <BellRing className="size-4" /> },
	{ id: 'teste', label: 'Teste', icon: <Send className="size-4" /> }
]
const GATEWAY_KEYS = { url: 'evolution_api_url', key: 'evolution_api_key', instance: 'evolution_instance_name' } as const

function ConnectionBadge() {
	const { data } = useStore($status)
	if (!data) return <span className="badge badge-ghost">Verificando...</span>
	return data.connected ? (
		<span className="badge badge-success badge-soft gap-1">
			<Wifi className="size-3" aria-hidden="true" />
			Conectado
		</span>
	) : (
		<span className="badge badge-error badge-soft gap-1" title={data.message ?? undefined}>
			<WifiOff className="size-3" aria-hidden="true" />
			Desconectado
		</span>
	)
}

function ApiTab() {
	const config = useStore($configuracoes)
	const status = useStore($status)
	const value = (chave: string) => config.data?.find((e) => e.chave === chave)?.valor ?? ''
	const [form, setForm] = useFormFromData(config.data, () => ({
		url: value(GATEWAY_KEYS.url),
		key: value(GATEWAY_KEYS.key),
		instance: value(GATEWAY_KEYS.instance)
	}))
	const [urlError, setUrlError] = useState<string | null>(null)
	const [pending, setPending] = useState(false)

	async function save(e: FormEvent) {
		e.preventDefault()
		if (!form) return
		if (form.url && !/^https?:\/\/\S+$/.test(form.url)) return setUrlError('URL da API inválida: use um endereço http(s) completo.')
		setUrlError(null)
		setPending(true)
		const entries = [
			{ chave: GATEWAY_KEYS.url, valor: form.url.trim(), descricao: 'URL da Evolution API' },
			{ chave: GATEWAY_KEYS.key, valor: form.key.trim(), descricao: 'Chave da Evolution API' },
			{ chave: GATEWAY_KEYS.instance, valor: form.instance.trim(), descricao: 'Nome da instância' }
		].map((e) => ({ ...e, categoria: 'whatsapp' }))
		const done = await mutate(
			'POST /api/configuracoes/bulk',
			{ body: { configuracoes: entries } },
			{
				success: { title: 'Sucesso', description: 'Configurações da Evolution API salvas com sucesso!' },
				errorTitle: 'Erro',
				errorFallback: 'Erro ao salvar configurações da Evolution API',
				invalidate: ['GET /api/configuracoes']
			}
		)
		setPending(false)
		if (done) $status.revalidate()
	}

	if (config.error)
		return (
			<ErrorPanel title="Erro ao carregar configurações" message={errorText(config.error)} onRetry={() => $configuracoes.revalidate()} />
		)
	if (!form) return <div className="skeleton h-80 max-w-2xl" role="status" aria-busy="true" aria-label="Carregando" />
	return (
		<form className="max-w-2xl space-y-4 rounded-box border border-base-300 bg-base-100 p-4 sm:p-6" onSubmit={save} noValidate>
			<div className="flex flex-wrap items-center justify-between gap-2">
				<h3 className="text-lg font-semibold">Evolution API (WhatsApp)</h3>
				<ConnectionBadge />
			</div>
			{status.data?.message && (
				<div role="status" className="alert alert-warning alert-soft">
					<span>{status.data.message}</span>
				</div>
			)}
			<TextField
				label="URL da API"
				error={urlError}
				type="url"
				value={form.url}
				placeholder="https://evolution.suaempresa.com.br"
				aria-invalid={!!urlError}
				onValue={(v) => setForm({ ...form, url: v })}
			/>
			<PasswordInput label="Chave da API" value={form.key} autoComplete="off" onChange={(key) => setForm({ ...form, key })} />
			<TextField
				label="Nome da instância"
				value={form.instance}
				placeholder="k-licencas"
				onValue={(v) => setForm({ ...form, instance: v })}
			/>
			<div className="flex flex-wrap justify-end gap-2">
				<button type="button" className="btn" onClick={() => $status.revalidate()}>
					<PlugZap className="size-4" aria-hidden="true" />
					Verificar conexão
				</button>
				<button type="submit" className="btn btn-primary" disabled={pending}>
					{pending ? <span className="loading loading-spinner loading-sm" /> : <Save className="size-4" aria-hidden="true" />}
					Salvar configurações
				</button>
			</div>
		</form>
	)
}

function TestTab() {
	const status = useStore($status)
	const [phone, setPhone] = useState('')
	const [message, setMessage] = useState('Mensagem de teste do portal K-Licenças.')
	const [pending, setPending] = useState(false)
	const [tried, setTried] = useState(false)
	const errors = tried ? whatsappMessageProblems({ phone, message }) : {}
	const connected = !!status.data?.connected

	async function send(e: FormEvent) {
		e.preventDefault()
		setTried(true)
		if (Object.keys(whatsappMessageProblems({ phone, message })).length > 0) return
		setPending(true)
		try {
			const result = await call('POST /api/evolution-api/test', { body: { phone, message } })
			if (result.success)
				toast({ title: 'Sucesso', description: `Mensagem enviada com sucesso! ID: ${result.messageId}`, variant: 'success' })
			else toast({ title: 'Erro no envio', description: result.error ?? 'Erro desconhecido', variant: 'destructive' })
		} catch (error) {
			toast({ title: 'Erro', description: errorText(error, 'Erro ao testar API'), variant: 'destructive' })
		}
		setPending(false)
	}

	return (
		<form className="max-w-2xl space-y-4 rounded-box border border-base-300 bg-base-100 p-4 sm:p-6" onSubmit={send} noValidate>
			<div className="flex flex-wrap items-center justify-between gap-2">
				<h3 className="text-lg font-semibold">Enviar mensagem de teste</h3>
				<ConnectionBadge />
			</div>
			<WhatsappPhoneField label="Telefone" value={phone} onChange={setPhone} error={errors.phone} />
			<Field label="Mensagem" error={errors.message}>
				<textarea className="textarea w-full" rows={4} value={message} onChange={(e) => setMessage(e.target.value)} />
			</Field>
			<div className="flex justify-end">
				<button type="submit" className="btn btn-primary" disabled={!connected || pending}>
					{pending ? <span className="loading loading-spinner loading-sm" /> : <Send className="size-4" aria-hidden="true" />}
					Enviar teste
				</button>
			</div>
			{!connected && (
				<p className="text-sm text-base-content/70">O envio fica disponível quando o WhatsApp da instância estiver conectado.</p>
			)}
		</form>
	)
}

type Rehearsal = ApiResponse<'POST /api/evolution-api/rehearsal'>

/** "Ensaio completo": the check:evolution rehearsal against the saved gateway, step by step, with a verdict. */
function RehearsalCard() {
	const [phone, setPhone] = useState('')
	const [pending, setPending] = useState(false)
	const [result, setResult] = useState<Rehearsal | null>(null)
	const [tried, setTried] = useState(false)

	async function run(e: FormEvent) {
		e.preventDefault()
		setTried(true)
		if (whatsappPhoneProblem(phone)) return
		setPending(true)
		setResult(null)
		try {
			setResult(await call('POST /api/evolution-api/rehearsal', { body: { phone } }))
		} catch (error) {
			toast({ title: 'Erro no ensaio', description: errorText(error, 'Não foi possível rodar o ensaio.'), variant: 'destructive' })
		}
		setPending(false)
	}

	return (
		<form className="max-w-2xl space-y-4 rounded-box border border-base-300 bg-base-100 p-4 sm:p-6" onSubmit={run} noValidate>
			<h3 className="text-lg font-semibold">Ensaio completo</h3>
			<p className="text-sm text-base-content/70">
				Confere a versão da Evolution, a conexão, envia uma mensagem ao seu número, mostra o webhook que o portal usa (sem alterá-lo) e se o
				envio voltou como eco. É o mesmo ensaio do comando check:evolution.
			</p>
			<p className="text-sm text-base-content/70">Use um número seu: ele recebe uma mensagem de teste.</p>
			<WhatsappPhoneField
				label="Seu telefone"
				value={phone}
				onChange={setPhone}
				error={tried ? (whatsappPhoneProblem(phone) ?? undefined) : undefined}
			/>
			<div className="flex justify-end">
				<button type="submit" className="btn" disabled={pending}>
					{pending ? <span className="loading loading-spinner loading-sm" /> : <PlugZap className="size-4" aria-hidden="true" />}
					Ensaio completo
				</button>
			</div>
			{result && (
				<RehearsalSteps
					ok={result.ok}
					verdict={result.verdict}
					lines={result.steps.map((s) => ({
						name: s.step,
						result: s.ok ? 'ok' : s.required ? 'failed' : 'warning',
						text: `${s.answer} — ${s.note}`
					}))}
				/>
			)}
		</form>
	)
}

function Content() {
	const [tab, setTab] = useState<Tab>('api')
	return (
		<div className="space-y-5">
			<Tabs label="Seções das notificações" value={tab} onChange={setTab} tabs={TABS} />
			{tab === 'api' && <ApiTab />}
			{tab === 'notificacoes' && <NotificationTypes />}
			{tab === 'teste' && (
				<>
					<TestTab />
					<RehearsalCard />
				</>
			)}
		</div>
	)
}

/** Notificações (3-billing-messaging §2): the WhatsApp gateway, the automatic notifications and a test send. */
export default function NotificationSettingsPage() {
	return (
		<PageRoot>
			<Content />
		</PageRoot>
	)
}
