import { useStore } from '@nanostores/react'
import { BellRing, BookOpen, CheckCircle2, Copy, Eye, EyeOff, PlugZap, Save, Settings2 } from 'lucide-react'
import { useState } from 'react'
import { type AsaasConfigView, MESSAGES } from '../../../../modules/billing/model'
import { PageRoot } from '../../components/PageRoot'
import { type TabItem, Tabs } from '../../components/Tabs'
import { ActiveBadge, ErrorPanel } from '../../components/ui'
import { TitledSection } from '../../components/TitledSection'
import { type GetRoute, call, errorText } from '../../lib/api'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { $user } from '../../stores/session'
import { toast } from '../../stores/toast'
import {
	type AccountForm,
	AsaasAccountFields,
	confirmKeyRemoval,
	EnvironmentAlert,
	showConnectionTest,
	toastKeyMissing
} from './AsaasAccountFields'
import { UsageLine } from './AccountTools'
import { DunningSettings } from './DunningSettings'
import { WebhookBanner } from './WebhookBanner'

const $config = routeStore('GET /api/representantes/asaas-config')
const INVALIDATE: readonly GetRoute[] = ['GET /api/representantes/asaas-config']

type Tab = 'config' | 'regua' | 'guia'
const TABS: TabItem<Tab>[] = [
	{ id: 'config', label: 'Configurações', icon: <Settings2 className="size-4" /> },
	{ id: 'regua', label: 'Régua de Cobrança', icon: <BellRing className="size-4" /> },
	{ id: 'guia', label: 'Guia de Configuração', icon: <BookOpen className="size-4" /> }
]

function ConfigForm({ saved }: { saved: AsaasConfigView }) {
	const [active, setActive] = useState(saved.ativar_api_asaas === 'S')
	const [form, setForm] = useState<AccountForm>({
		apiKey: saved.asaas_api_key,
		environment: saved.asaas_ambiente,
		webhookToken: saved.asaas_webhook_token
	})
	const [keyError, setKeyError] = useState<string | null>(null)
	const [pending, setPending] = useState<'save' | 'test' | null>(null)

	async function save() {
		if (active && !form.apiKey) return setKeyError(MESSAGES.keyRequired)
		setKeyError(null)
		if (!(await confirmKeyRemoval(saved.asaas_api_key, form, 'o portal deixa de emitir e acompanhar carnês por esta conta.'))) return
		setPending('save')
		await mutate(
			'PUT /api/representantes/asaas-config',
			{
				body: {
					ativar_api_asaas: active ? 'S' : 'N',
					asaas_api_key: form.apiKey,
					asaas_ambiente: form.environment,
					asaas_webhook_token: form.webhookToken
				}
			},
			{
				success: { title: 'Configurações salvas', description: (r) => r.message },
				errorTitle: 'Erro ao salvar',
				errorFallback: 'Erro ao salvar configurações do Asaas.',
				invalidate: INVALIDATE
			}
		)
		setPending(null)
	}

	async function test() {
		if (!form.apiKey) return toastKeyMissing()
		setPending('test')
		await showConnectionTest(() => call('POST /api/asaas/test-config'), INVALIDATE, 'Erro ao validar configurações do Asaas.')
		setPending(null)
	}

	return (
		<TitledSection
			id="asaas-title"
			title="Integração Asaas"
			className="max-w-3xl space-y-5"
			headClassName="flex flex-wrap items-center justify-between gap-3"
			aside={
				<div className="flex gap-2">
					<ActiveBadge active={saved.ativar_api_asaas === 'S'} />
					{saved.configurado && (
						<span className="badge badge-info badge-soft gap-1">
							<CheckCircle2 className="size-3" aria-hidden="true" />
							Configurado
						</span>
					)}
				</div>
			}
		>
			<EnvironmentAlert environment={form.environment} />
			<label className="flex cursor-pointer items-center gap-3">
				<input type="checkbox" className="toggle toggle-success" checked={active} onChange={(e) => setActive(e.target.checked)} />
				<span className="font-medium">Ativar integração com o Asaas</span>
			</label>
			<AsaasAccountFields value={form} onChange={setForm} disabled={!active} keyError={keyError} />
			<div className="flex flex-wrap justify-end gap-2">
				<button type="button" className="btn" onClick={test} disabled={pending !== null || !active}>
					{pending === 'test' ? <span className="loading loading-spinner loading-sm" /> : <PlugZap className="size-4" aria-hidden="true" />}
					Testar configuração
				</button>
				<button type="button" className="btn btn-primary" onClick={save} disabled={pending !== null}>
					{pending === 'save' ? <span className="loading loading-spinner loading-sm" /> : <Save className="size-4" aria-hidden="true" />}
					Salvar configurações
				</button>
			</div>
		</TitledSection>
	)
}

async function copy(text: string) {
	try {
		await navigator.clipboard.writeText(text)
		toast({ title: 'Copiado!', variant: 'success' })
	} catch {
		toast({ title: 'Não foi possível copiar', variant: 'destructive' })
	}
}

/** The saved token, masked until its owner asks to see it (read from the server only then), with a copy button. */
function SavedToken({ masked }: { masked: string }) {
	const [clear, setClear] = useState<string | null>(null)
	const [loading, setLoading] = useState(false)
	if (!masked) return <dd className="font-mono">Nenhum</dd>
	async function reveal() {
		setLoading(true)
		try {
			setClear((await call('GET /api/representantes/asaas-config/webhook-token')).token)
		} catch (error) {
			toast({ title: 'Erro ao mostrar o token', description: errorText(error), variant: 'destructive' })
		} finally {
			setLoading(false)
		}
	}
	return (
		<dd className="flex flex-wrap items-center gap-2">
			<span className="break-all font-mono" data-testid="webhook-token">
				{clear ?? masked}
			</span>
			{clear ? (
				<>
					<button type="button" className="btn btn-ghost btn-xs" aria-label="Copiar token do webhook" onClick={() => copy(clear)}>
						<Copy className="size-3" />
					</button>
					<button type="button" className="btn btn-ghost btn-xs" onClick={() => setClear(null)}>
						<EyeOff className="size-3" aria-hidden="true" />
						Ocultar
					</button>
				</>
			) : (
				<button type="button" className="btn btn-ghost btn-xs" onClick={reveal} disabled={loading}>
					{loading ? <span className="loading loading-spinner loading-xs" /> : <Eye className="size-3" aria-hidden="true" />}
					Mostrar token
				</button>
			)}
		</dd>
	)
}

/** Guia de Configuração: the four steps of 3-billing-messaging §2, with the webhook to set up by hand. */
function Guide({ saved }: { saved: AsaasConfigView }) {
	const steps = [
		{
			title: 'Crie sua conta no Asaas',
			text: 'Cadastre-se em asaas.com (ou em sandbox.asaas.com para testar sem cobranças reais) com o CNPJ da sua empresa.'
		},
		{
			title: 'Gere a chave de API',
			text: 'No Asaas, abra Integrações › Chaves de API e gere uma chave. Ela começa com $aact_ (produção) ou $aact_hmlg_ (sandbox).'
		},
		{
			title: 'Configure no portal',
			text: 'Na aba Configurações, ative a integração, cole a chave, escolha o mesmo ambiente da chave e salve. O portal registra o webhook no Asaas sozinho quando o endereço público está configurado.'
		},
		{
			title: 'Teste a configuração',
			text: 'Clique em Testar configuração: o portal confere a chave no Asaas e informa o estado do webhook.'
		}
	]
	return (
		<div className="max-w-3xl space-y-4">
			<ol className="space-y-3">
				{steps.map((s, i) => (
					<li key={s.title} className="flex gap-3 rounded-box border border-base-300 bg-base-100 p-4">
						<span className="grid size-8 shrink-0 place-items-center rounded-full bg-primary font-bold text-primary-content">{i + 1}</span>
						<div>
							<p className="font-semibold">{s.title}</p>
							<p className="text-sm text-base-content/70">{s.text}</p>
						</div>
					</li>
				))}
			</ol>
			<section className="rounded-box border border-base-300 bg-base-100 p-4" aria-labelledby="manual-webhook">
				<h3 id="manual-webhook" className="font-semibold">
					Webhook para configurar à mão
				</h3>
				<p className="mb-3 text-sm text-base-content/70">
					Se preferir cadastrar o webhook no painel do Asaas (Integrações › Webhooks), use o endereço abaixo, marque os eventos de cobrança
					e informe como token de autenticação o mesmo token salvo aqui (gere um com “Gerar token”, copie-o antes de salvar).
				</p>
				<dl className="grid gap-2 text-sm">
					<div>
						<dt className="text-base-content/70">URL do webhook</dt>
						<dd className="flex items-center gap-2 break-all font-mono">
							{saved.webhook.url ?? 'Defina PUBLIC_URL no servidor para conhecer o endereço público do portal.'}
							{saved.webhook.url && (
								<button
									type="button"
									className="btn btn-ghost btn-xs"
									aria-label="Copiar URL do webhook"
									onClick={() => copy(saved.webhook.url ?? '')}
								>
									<Copy className="size-3" />
								</button>
							)}
						</dd>
					</div>
					<div>
						<dt className="text-base-content/70">Token salvo</dt>
						<SavedToken masked={saved.asaas_webhook_token} />
					</div>
					<div>
						<dt className="text-base-content/70">Eventos</dt>
						<dd>Todos os eventos de cobrança (PAYMENT_*), envio sequencial.</dd>
					</div>
				</dl>
			</section>
		</div>
	)
}

function Content() {
	const { data, loading, error } = useStore($config)
	const user = useStore($user)
	const [tab, setTab] = useState<Tab>('config')
	if (error) return <ErrorPanel title="Erro ao carregar configurações" message={errorText(error)} onRetry={() => $config.revalidate()} />
	if (loading || !data) return <div className="skeleton h-96 w-full max-w-3xl" role="status" aria-busy="true" aria-label="Carregando" />
	return (
		<div className="space-y-5">
			{user && <WebhookBanner account={user.cnpj} webhook={data.webhook} invalidate={INVALIDATE} />}
			{data.configurado && <UsageLine uso={data.uso} />}
			<Tabs label="Seções das configurações financeiras" value={tab} onChange={setTab} tabs={TABS} />
			{tab === 'config' && <ConfigForm key={`${data.asaas_api_key}${data.ativar_api_asaas}`} saved={data} />}
			{tab === 'regua' && <DunningSettings />}
			{tab === 'guia' && <Guide saved={data} />}
		</div>
	)
}

/** Configurações Financeiras (3-billing-messaging §2): the representative's own Asaas account. */
export default function OwnAsaasConfigPage() {
	return (
		<PageRoot>
			<Content />
		</PageRoot>
	)
}
