import { useStore } from '@nanostores/react'
import { BellRing, Building2, CheckCircle2, Landmark, Pencil, PlugZap, Receipt, Save, Send, Wallet } from 'lucide-react'
import { useState } from 'react'
import { type AdminAsaasConfigView, MESSAGES, type VendorAsaasConfigView } from '../../../../modules/billing/model'
import { formatCnpj, formatReais } from '../../../../modules/core'
import { Modal, ModalActions } from '../../components/Modal'
import { PageRoot } from '../../components/PageRoot'
import { AddButton, ActiveBadge, EmptyState, ErrorPanel, Field, PageActions, StatCard, StatGrid } from '../../components/ui'
import { type GetRoute, call, errorText } from '../../lib/api'
import { usePending } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { confirmAction } from '../../stores/confirm'
import {
	type AccountForm,
	AsaasAccountFields,
	confirmKeyRemoval,
	EnvironmentAlert,
	showConnectionTest,
	toastKeyMissing
} from './AsaasAccountFields'
import { RehearsalButton, UsageLine } from './AccountTools'
import { DunningSettings } from './DunningSettings'
import { WebhookBanner } from './WebhookBanner'

const $stats = routeStore('GET /api/admin/financial-stats')
const $configs = routeStore('GET /api/admin/asaas-configs')
const $vendor = routeStore('GET /api/admin/asaas-vendor')
const $representatives = routeStore('GET /api/representatives')
const INVALIDATE: readonly GetRoute[] = ['GET /api/admin/financial-stats', 'GET /api/admin/asaas-configs', 'GET /api/admin/asaas-vendor']

const EnvironmentBadge = ({ production }: { production: boolean }) => (
	<span className={`badge badge-soft ${production ? 'badge-warning' : 'badge-info'}`}>{production ? 'Produção' : 'Sandbox'}</span>
)

/** Runs a test call and tells its result (3-billing-messaging §8: 'Configuração válida', 'Erro na configuração', 'Erro ao testar'). */
function showTest(test: () => Promise<{ success: boolean; message: string }>) {
	return showConnectionTest(test, INVALIDATE, 'Erro ao testar configurações do Asaas.')
}

/** The vendor's own account, which the credit self-purchase charges through (not in the spec's screen, asked by the issue). */
function VendorCard({ vendor }: { vendor: VendorAsaasConfigView }) {
	const [form, setForm] = useState<AccountForm>({
		apiKey: vendor.asaas_api_key,
		environment: vendor.asaas_ambiente,
		webhookToken: vendor.asaas_webhook_token
	})
	const [pending, setPending] = useState<'save' | 'test' | null>(null)
	async function save() {
		if (!(await confirmKeyRemoval(vendor.asaas_api_key, form, 'os representantes deixam de poder comprar créditos por PIX (Autocompra).')))
			return
		setPending('save')
		await mutate(
			'PUT /api/admin/asaas-vendor',
			{ body: { asaas_api_key: form.apiKey, asaas_ambiente: form.environment, asaas_webhook_token: form.webhookToken } },
			{ success: { title: 'Configuração salva', description: (r) => r.message }, errorTitle: 'Erro ao salvar', invalidate: INVALIDATE }
		)
		setPending(null)
	}
	async function test() {
		if (!vendor.configurado) return toastKeyMissing()
		setPending('test')
		await showTest(() => call('POST /api/admin/asaas-vendor/test'))
		setPending(null)
	}
	return (
		<section className="space-y-4 rounded-box border border-base-300 bg-base-100 p-4 sm:p-6" aria-labelledby="vendor-title">
			<div className="flex flex-wrap items-center justify-between gap-2">
				<div>
					<h3 id="vendor-title" className="flex items-center gap-2 text-lg font-semibold">
						<Landmark className="size-5" aria-hidden="true" />
						Conta Asaas do fornecedor
					</h3>
					<p className="text-sm text-base-content/70">Recebe os pagamentos da autocompra de créditos dos representantes (PIX).</p>
				</div>
				{vendor.configurado ? (
					<span className="badge badge-info badge-soft gap-1">
						<CheckCircle2 className="size-3" aria-hidden="true" />
						Configurado
					</span>
				) : (
					<span className="badge badge-ghost">Não configurado</span>
				)}
			</div>
			<EnvironmentAlert environment={form.environment} />
			<UsageLine uso={vendor.uso} />
			<AsaasAccountFields value={form} onChange={setForm} />
			<div className="flex flex-wrap justify-end gap-2">
				{vendor.configurado && vendor.asaas_ambiente === 'sandbox' && <RehearsalButton account="fornecedor" name="Fornecedor" />}
				<button type="button" className="btn" onClick={test} disabled={pending !== null}>
					{pending === 'test' ? <span className="loading loading-spinner loading-sm" /> : <PlugZap className="size-4" aria-hidden="true" />}
					Testar
				</button>
				<button type="button" className="btn btn-primary" onClick={save} disabled={pending !== null}>
					{pending === 'save' ? <span className="loading loading-spinner loading-sm" /> : <Save className="size-4" aria-hidden="true" />}
					Salvar
				</button>
			</div>
		</section>
	)
}

/** 'Nova Configuração' / 'Editar Configuração': empty, sandbox and inactive when creating; the representative is chosen only then. */
function ConfigDialog({ editing, onClose }: { editing: AdminAsaasConfigView | null | undefined; onClose: () => void }) {
	const open = editing !== undefined
	const reps = useStore($representatives)
	const [cnpj, setCnpj] = useState(editing?.representante_cnpj ?? '')
	const [active, setActive] = useState(editing?.ativar_api_asaas ?? false)
	const [form, setForm] = useState<AccountForm>({
		apiKey: editing?.asaas_api_key ?? '',
		environment: editing?.asaas_ambiente ?? 'sandbox',
		webhookToken: editing?.asaas_webhook_token ?? ''
	})
	const [errors, setErrors] = useState<{ rep?: string; key?: string }>({})
	const [pending, setPending] = useState(false)
	async function save(e: React.FormEvent) {
		e.preventDefault()
		const next = { rep: cnpj ? undefined : MESSAGES.chooseRepresentative, key: active && !form.apiKey ? MESSAGES.keyRequired : undefined }
		setErrors(next)
		if (next.rep || next.key) return
		const consequence = `o portal deixa de emitir e acompanhar carnês pela conta de ${editing?.representante_nome ?? 'este representante'}.`
		if (editing && !(await confirmKeyRemoval(editing.asaas_api_key, form, consequence))) return
		setPending(true)
		const done = await mutate(
			'PUT /api/admin/asaas-configs/:cnpj',
			{
				params: { cnpj },
				body: {
					representante_cnpj: cnpj,
					ativar_api_asaas: active,
					asaas_api_key: form.apiKey,
					asaas_ambiente: form.environment,
					asaas_webhook_token: form.webhookToken
				}
			},
			{ success: { title: 'Configuração salva', description: (r) => r.message }, errorTitle: 'Erro ao salvar', invalidate: INVALIDATE }
		)
		setPending(false)
		if (done) onClose()
	}
	return (
		<Modal
			open={open}
			onClose={onClose}
			title={editing ? 'Editar Configuração' : 'Nova Configuração'}
			size="lg"
			footer={<ModalActions onCancel={onClose} form="asaas-config-form" pending={pending} label="Salvar" />}
		>
			<form id="asaas-config-form" className="space-y-4" onSubmit={save} noValidate>
				{editing ? (
					<p className="text-sm">
						<span className="font-semibold">{editing.representante_nome}</span> · {formatCnpj(editing.representante_cnpj)}
					</p>
				) : (
					<Field label="Representante" error={errors.rep}>
						<select className="select w-full" value={cnpj} onChange={(e) => setCnpj(e.target.value)} aria-invalid={!!errors.rep}>
							<option value="">{reps.loading ? 'Carregando representantes...' : 'Selecione um representante'}</option>
							{reps.data?.map((r) => (
								<option key={r.cnpj} value={r.cnpj}>
									{r.nome} — {formatCnpj(r.cnpj)}
								</option>
							))}
						</select>
					</Field>
				)}
				<label className="flex cursor-pointer items-center gap-3">
					<input type="checkbox" className="toggle toggle-success" checked={active} onChange={(e) => setActive(e.target.checked)} />
					<span className="font-medium">Integração ativa</span>
				</label>
				<EnvironmentAlert environment={form.environment} />
				<AsaasAccountFields value={form} onChange={setForm} disabled={!active} keyError={errors.key} />
			</form>
		</Modal>
	)
}

/** A representative's reminder schedule, as the administrador sees and changes it. */
function DunningDialog({ account, onClose }: { account: AdminAsaasConfigView; onClose: () => void }) {
	return (
		<Modal
			open
			onClose={onClose}
			title={`Régua de cobrança · ${account.representante_nome}`}
			size="lg"
			footer={
				<button type="button" className="btn" onClick={onClose}>
					Fechar
				</button>
			}
		>
			<DunningSettings representante={account.representante_cnpj} />
		</Modal>
	)
}

/** 'Executar régua agora': every schedule's messages of today, without waiting for their send time. */
function RunDunningButton() {
	const [running, run] = usePending(async () => {
		const ok = await confirmAction({
			title: 'Executar a régua de cobrança agora?',
			message:
				'Os lembretes devidos hoje em todas as réguas ativas serão escolhidos e enviados agora, sem esperar o horário de cada uma. Quem já recebeu não recebe de novo.',
			confirmLabel: 'Executar agora'
		})
		if (!ok) return
		await mutate(
			'POST /api/regua-cobranca/executar',
			{},
			{ success: { title: 'Régua executada', description: (r) => r.message }, errorTitle: 'Erro ao executar a régua' }
		)
	})
	return (
		<button type="button" className="btn" onClick={run} disabled={running}>
			{running ? <span className="loading loading-spinner loading-sm" /> : <Send className="size-4" aria-hidden="true" />}
			Executar régua agora
		</button>
	)
}

function ConfigList({ onEdit, onDunning }: { onEdit: (c: AdminAsaasConfigView) => void; onDunning: (c: AdminAsaasConfigView) => void }) {
	const { data, loading, error } = useStore($configs)
	const [testing, setTesting] = useState<string | null>(null)
	if (error) return <ErrorPanel title="Erro ao carregar configurações" message={errorText(error)} onRetry={() => $configs.revalidate()} />
	if (loading || !data) return <div className="skeleton h-40 w-full" role="status" aria-busy="true" aria-label="Carregando" />
	if (data.length === 0) {
		return (
			<EmptyState
				title="Nenhuma configuração encontrada"
				hint="Clique em Nova Configuração para cadastrar a conta Asaas de um representante."
				icon={<Wallet className="size-10" />}
			/>
		)
	}
	return (
		<div className="space-y-3">
			{data.map((c) => (
				<div key={c.representante_cnpj} className="space-y-2">
					<WebhookBanner account={c.representante_cnpj} name={c.representante_nome} webhook={c.webhook} invalidate={INVALIDATE} />
					<div className="flex flex-wrap items-center gap-3 rounded-box border border-base-300 bg-base-100 p-4">
						<div className="min-w-0 grow">
							<p className="truncate font-semibold">{c.representante_nome}</p>
							<p className="text-sm text-base-content/70">{formatCnpj(c.representante_cnpj)}</p>
							<UsageLine uso={c.uso} />
						</div>
						<div className="flex flex-wrap items-center gap-2">
							<ActiveBadge active={c.ativar_api_asaas} />
							<EnvironmentBadge production={c.asaas_ambiente === 'production'} />
							<button
								type="button"
								className="btn btn-sm"
								disabled={!c.ativar_api_asaas || testing !== null}
								onClick={async () => {
									setTesting(c.representante_cnpj)
									await showTest(() => call('POST /api/admin/asaas-configs/:cnpj/test', { params: { cnpj: c.representante_cnpj } }))
									setTesting(null)
								}}
							>
								{testing === c.representante_cnpj ? (
									<span className="loading loading-spinner loading-xs" />
								) : (
									<PlugZap className="size-4" aria-hidden="true" />
								)}
								Testar
							</button>
							{c.configurado && c.asaas_ambiente === 'sandbox' && (
								<RehearsalButton small account={c.representante_cnpj} name={c.representante_nome} />
							)}
							<button
								type="button"
								className="btn btn-sm"
								onClick={() => onDunning(c)}
								aria-label={`Régua de cobrança de ${c.representante_nome}`}
							>
								<BellRing className="size-4" aria-hidden="true" />
								Régua
							</button>
							<button
								type="button"
								className="btn btn-sm"
								onClick={() => onEdit(c)}
								aria-label={`Editar configuração de ${c.representante_nome}`}
							>
								<Pencil className="size-4" aria-hidden="true" />
								Editar
							</button>
						</div>
					</div>
				</div>
			))}
		</div>
	)
}

function Content() {
	const stats = useStore($stats)
	const vendor = useStore($vendor)
	const [editing, setEditing] = useState<AdminAsaasConfigView | null | undefined>(undefined)
	const [dunning, setDunning] = useState<AdminAsaasConfigView | null>(null)
	return (
		<div className="space-y-6">
			<PageActions>
				<RunDunningButton />
				<AddButton label="Nova Configuração" onClick={() => setEditing(null)} />
			</PageActions>
			<StatGrid className="grid grid-cols-2 gap-3 lg:grid-cols-4" count={4}>
				{stats.data && (
					<>
						<StatCard title="Total de configurações" value={stats.data.totalConfiguracoes} icon={<Building2 className="size-5" />} />
						<StatCard
							title="Configurações ativas"
							value={stats.data.configuracoesAtivas}
							tone="success"
							icon={<CheckCircle2 className="size-5" />}
						/>
						<StatCard title="Carnês gerados" value={stats.data.carnesGerados} tone="info" icon={<Receipt className="size-5" />} />
						<StatCard
							title="Valor total"
							value={formatReais(stats.data.valorTotalCarnes)}
							hint="Parcelas pagas e em aberto, sem canceladas nem estornadas"
							tone="accent"
							icon={<Wallet className="size-5" />}
						/>
					</>
				)}
			</StatGrid>
			{vendor.data && (
				<div className="space-y-2">
					<WebhookBanner account="fornecedor" name="Fornecedor" webhook={vendor.data.webhook} invalidate={INVALIDATE} />
					<VendorCard key={`${vendor.data.asaas_api_key}${vendor.data.asaas_ambiente}`} vendor={vendor.data} />
				</div>
			)}
			<section className="space-y-3" aria-labelledby="reps-title">
				<h3 id="reps-title" className="text-lg font-semibold">
					Contas dos representantes
				</h3>
				<ConfigList onEdit={setEditing} onDunning={setDunning} />
			</section>
			{dunning && <DunningDialog key={dunning.representante_cnpj} account={dunning} onClose={() => setDunning(null)} />}
			{editing !== undefined && (
				<ConfigDialog key={editing?.representante_cnpj ?? 'new'} editing={editing} onClose={() => setEditing(undefined)} />
			)}
		</div>
	)
}

/** Admin Financeiro (3-billing-messaging §2): every representative's Asaas account, and the vendor's. */
export default function AdminFinancePage() {
	return (
		<PageRoot>
			<Content />
		</PageRoot>
	)
}
