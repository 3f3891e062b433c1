import { useStore } from '@nanostores/react'
import { AlertTriangle, Cloud, HardDrive, Palette, RotateCcw, Save, Server, Settings2, Shield } from 'lucide-react'
import { type ReactNode, useEffect, useMemo, useState } from 'react'
import { can, denialOf, formatNumber, mayOpen, moneyText, parseMoneyText, setDisplayFormats } from '../../../../modules/core'
import { type ThemeSettings, themeFromValues } from '../../../../modules/settings/model'
import { PageRoot } from '../../components/PageRoot'
import { Tabs } from '../../components/Tabs'
import { AccessDenied, ErrorPanel, Field, MoneyInput, type SelectOption, SelectField, TextField } from '../../components/ui'
import { errorText } from '../../lib/api'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { $user } from '../../stores/session'
import { clearThemeOverride, previewPortalTheme } from '../../stores/theme'
import { toast } from '../../stores/toast'
import { BULK_KEYS, choicesOf, rangeOf, type SettingEntry, type Values, cacheSettings, cachedSettings, validate } from './settings-form'
import { SecurityTab } from './SecurityTab'
import { SystemTab } from './SystemTab'

const $settings = routeStore('GET /api/configuracoes')

type Tab = 'geral' | 'aparencia' | 'seguranca' | 'sistema'
const TABS: { id: Tab; label: string; icon: ReactNode }[] = [
	{ id: 'geral', label: 'Geral', icon: <Settings2 className="size-4" /> },
	{ id: 'aparencia', label: 'Aparência', icon: <Palette className="size-4" /> },
	{ id: 'seguranca', label: 'Segurança', icon: <Shield className="size-4" /> },
	{ id: 'sistema', label: 'Sistema', icon: <Server className="size-4" /> }
]

function Card({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
	return (
		<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-6">
			<h3 className="text-lg font-semibold">{title}</h3>
			{description && <p className="mt-1 text-sm text-base-content/70">{description}</p>}
			<div className="mt-4">{children}</div>
		</section>
	)
}

function Toggle({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (v: boolean) => void; hint?: string }) {
	return (
		<label className="flex cursor-pointer items-start justify-between gap-4 rounded-field border border-base-300 p-3">
			<span>
				<span className="block font-medium">{label}</span>
				{hint && <span className="block text-xs text-base-content/70">{hint}</span>}
			</span>
			<input type="checkbox" className="toggle toggle-primary" checked={checked} onChange={(e) => onChange(e.target.checked)} />
		</label>
	)
}

/** The form's state as every setting control reads and writes it. */
interface SettingsForm {
	values: Values
	errors: Record<string, string>
	set: (k: string, v: string) => void
}

/** One setting on the form: its key, its words and how it is edited (a number within its range, a choice, a switch). */
type SettingControl =
	| { kind: 'number'; key: string; label: string; suffix?: string }
	| { kind: 'select'; key: string; label: string; hint?: string; options: SelectOption[] }
	| { kind: 'toggle'; key: string; label: string; hint: string }

const numberControl = (key: string, label: string, suffix?: string): SettingControl => ({ kind: 'number', key, label, suffix })
const switchControl = (key: string, label: string, hint: string): SettingControl => ({ kind: 'toggle', key, label, hint })
const selectControl = (key: string, label: string, hint?: string): SettingControl => ({
	kind: 'select',
	key,
	label,
	hint,
	options: Object.entries(choicesOf(key)).map(([value, text]) => ({ value, label: text }))
})

const CREDIT_SETTINGS = [
	numberControl('app.valor_credito_dia', 'Dias por crédito', 'dias'),
	numberControl('app.valor_credito_individual', 'Valor do crédito (R$)'),
	numberControl('app.terminais_padrao', 'Terminais padrão')
]
const SWITCH_SETTINGS = [
	switchControl('app.notificacoes_habilitadas', 'Notificações', 'Avisos e alertas no sino do topo.'),
	switchControl('app.backup_automatico', 'Backup automático', 'Cópia do banco e dos arquivos enviados.')
]
const BACKUP_SETTINGS = [
	numberControl('app.intervalo_backup', 'Intervalo de backup (horas)', 'horas'),
	numberControl('app.backups_manter', 'Backups automáticos mantidos')
]
const REGION_SETTINGS = [
	selectControl(
		'app.fuso_horario',
		'Fuso horário',
		'Usado nas datas e horas exibidas (as licenças vencem sempre pelo horário de Brasília).'
	),
	selectControl(
		'app.formato_data',
		'Formato de data',
		'Vale para todas as datas exibidas no portal. As planilhas exportadas usam sempre dd/mm/aaaa.'
	),
	selectControl('app.moeda', 'Moeda', 'Muda o símbolo dos valores exibidos; os valores não são convertidos.')
]
const FONT_SIZE_SETTING = selectControl('tema.tamanho_fonte', 'Tamanho da fonte')
const COMPACT_MODE_SETTING = switchControl('tema.modo_compacto', 'Modo compacto', 'Menos espaço entre os elementos.')

/** The one way the form renders a setting, from its descriptor. */
function Setting({ control, form }: { control: SettingControl; form: SettingsForm }) {
	const { values, set } = form
	switch (control.kind) {
		case 'toggle':
			return (
				<Toggle
					label={control.label}
					hint={control.hint}
					checked={values[control.key] === 'true'}
					onChange={(v) => set(control.key, String(v))}
				/>
			)
		case 'select':
			return (
				<SelectField
					label={control.label}
					hint={control.hint}
					value={values[control.key]}
					onValue={(v) => set(control.key, v)}
					options={control.options}
				/>
			)
		case 'number':
			return <NumberField k={control.key} label={control.label} suffix={control.suffix} form={form} />
	}
}

/** A group of settings on a grid (`className`). */
function SettingList({ controls, form, className }: { controls: SettingControl[]; form: SettingsForm; className: string }) {
	return (
		<div className={className}>
			{controls.map((control) => (
				<Setting key={control.key} control={control} form={form} />
			))}
		</div>
	)
}

function NumberField({ k, form, suffix, label }: { k: string; form: SettingsForm; suffix?: string; label: string }) {
	const { values, errors, set } = form
	const r = rangeOf(k)
	const hint = r.step
		? `De ${moneyText(r.min)} a ${moneyText(r.max)}`
		: `De ${formatNumber(r.min)} a ${formatNumber(r.max)}${suffix ? ` ${suffix}` : ''}`
	if (r.step) return <MoneySetting k={k} label={label} hint={hint} form={form} />
	return (
		<TextField
			label={label}
			error={errors[k]}
			hint={hint}
			type="number"
			inputMode={r.step ? 'decimal' : 'numeric'}
			min={r.min}
			max={r.max}
			step={r.step ?? 1}
			value={values[k] ?? ''}
			aria-invalid={!!errors[k]}
			onValue={(v) => set(k, v)}
		/>
	)
}

/**
 * A money setting shown the Brazilian way ("50,00", issue 14 point 9) and saved as the API stores it ("50.00"). What
 * cannot be read as money is kept as typed, so the range message appears beside it.
 */
function MoneySetting({ k, label, hint, form }: { k: string; label: string; hint: string; form: SettingsForm }) {
	const { values, errors, set } = form
	const [text, setText] = useState(() => moneyText(values[k]))
	// A value from outside (loaded, restored to its default, saved) replaces what is shown.
	useEffect(() => {
		const typed = parseMoneyText(text)
		if (typed === null || !Number.isFinite(typed) || typed.toFixed(2) !== Number(values[k]).toFixed(2)) setText(moneyText(values[k]))
	}, [values[k]])
	return (
		<Field label={label} error={errors[k]} hint={hint}>
			<MoneyInput
				value={text}
				aria-invalid={errors[k] ? true : undefined}
				onChange={(next) => {
					setText(next)
					const reais = parseMoneyText(next)
					set(k, reais !== null && Number.isFinite(reais) ? reais.toFixed(2) : next)
				}}
			/>
		</Field>
	)
}

const ENVIRONMENTS = choicesOf('app.asaas_environment')

function GeneralTab({ form, entries }: { form: SettingsForm; entries: SettingEntry[] }) {
	const asaasKey = entries.find((e) => e.chave === 'app.asaas_api_key')
	const { values } = form
	return (
		<div className="space-y-5">
			<Card title="Créditos e licenças">
				<SettingList className="grid gap-4 sm:grid-cols-3" controls={CREDIT_SETTINGS} form={form} />
			</Card>
			<Card title="Notificações e backup">
				<SettingList className="grid gap-3 sm:grid-cols-2" controls={SWITCH_SETTINGS} form={form} />
				<SettingList className="mt-4 grid gap-4 sm:grid-cols-2" controls={BACKUP_SETTINGS} form={form} />
			</Card>
			<Card title="Região">
				<div className="grid gap-4 sm:grid-cols-2">
					<div>
						<p className="mb-1 block text-sm font-medium">Idioma</p>
						<p className="rounded-field border border-base-300 bg-base-200/60 px-3 py-2 text-sm">
							{choicesOf('app.idioma')['pt-BR']} — o único idioma disponível por enquanto.
						</p>
					</div>
					{REGION_SETTINGS.map((control) => (
						<Setting key={control.key} control={control} form={form} />
					))}
				</div>
			</Card>
			{asaasKey && (
				<Card title="Pagamentos (Asaas)" description="Lidos da configuração do servidor; este formulário não os altera.">
					<dl className="grid gap-3 text-sm sm:grid-cols-2">
						<div>
							<dt className="text-base-content/70">Ambiente</dt>
							<dd className="font-medium">{ENVIRONMENTS[values['app.asaas_environment']] ?? ENVIRONMENTS.sandbox}</dd>
						</div>
						<div>
							<dt className="text-base-content/70">Chave da API</dt>
							<dd className="font-mono">{asaasKey.valor || 'Não configurada'}</dd>
						</div>
					</dl>
				</Card>
			)}
		</div>
	)
}

const COLOURS: [string, string][] = [
	['tema.cor_primaria', 'Cor primária'],
	['tema.cor_secundaria', 'Cor secundária'],
	['tema.cor_destaque', 'Cor de destaque']
]

function AppearanceTab({ form }: { form: SettingsForm }) {
	const { values, set } = form
	return (
		<div className="space-y-5">
			<Card
				title="Modo"
				description="Aplicado a todos os usuários. O botão de tema do topo continua valendo como escolha pessoal de cada navegador."
			>
				<div role="radiogroup" aria-label="Modo do tema" className="join">
					{Object.entries(choicesOf('tema.modo')).map(([mode, label]) => (
						<input
							key={mode}
							type="radio"
							name="tema-modo"
							className="btn join-item"
							aria-label={label}
							checked={values['tema.modo'] === mode}
							onChange={() => set('tema.modo', mode)}
						/>
					))}
				</div>
			</Card>
			<Card
				title="Cores"
				description="Definem o tema claro; no escuro, a primária e a de destaque alteradas aparecem clareadas. O texto sobre cada cor fica preto ou branco conforme a luminosidade."
			>
				<div className="grid gap-4 sm:grid-cols-3">
					{COLOURS.map(([key, label]) => (
						<Field key={key} label={label}>
							<div className="flex items-center gap-2">
								<input
									type="color"
									className="h-10 w-14 cursor-pointer rounded-field border border-base-300 bg-base-100"
									aria-label={`${label} (seletor)`}
									value={values[key]?.toLowerCase() ?? '#000000'}
									onChange={(e) => set(key, e.target.value)}
								/>
								<input
									className="input w-full font-mono uppercase"
									aria-label={label}
									maxLength={7}
									value={values[key] ?? ''}
									onChange={(e) => set(key, e.target.value.startsWith('#') ? e.target.value : `#${e.target.value}`)}
								/>
							</div>
						</Field>
					))}
				</div>
				<section
					className="mt-5 flex flex-wrap items-center gap-2 rounded-field border border-dashed border-base-300 p-4"
					aria-label="Pré-visualização"
				>
					<span className="mr-2 text-sm text-base-content/70">Pré-visualização:</span>
					<button type="button" className="btn btn-primary btn-sm">
						Primária
					</button>
					<button type="button" className="btn btn-secondary btn-sm">
						Secundária
					</button>
					<button type="button" className="btn btn-accent btn-sm">
						Destaque
					</button>
					<span className="badge badge-primary">Badge</span>
				</section>
			</Card>
			<Card title="Texto e densidade">
				<div className="grid gap-4 sm:grid-cols-2">
					<Setting control={FONT_SIZE_SETTING} form={form} />
					<div className="self-end">
						<Setting control={COMPACT_MODE_SETTING} form={form} />
					</div>
				</div>
			</Card>
		</div>
	)
}

function Settings() {
	const user = useStore($user)
	const { data, error, loading } = useStore($settings)
	const [tab, setTab] = useState<Tab>('geral')
	const [baseline, setBaseline] = useState<Values | null>(null)
	const [values, setValues] = useState<Values>({})
	const [source, setSource] = useState<'default' | 'loading' | 'success' | 'error'>('loading')
	const [saving, setSaving] = useState(false)
	const isAdmin = can(user?.tipo, 'settings.manage')

	const entries = useMemo(() => data ?? (error ? (cachedSettings() ?? []) : []), [data, error])
	useEffect(() => {
		if (data) {
			cacheSettings(data)
			setSource('success')
		} else if (error) setSource('error')
		else if (loading) setSource('loading')
		if (data || error) {
			const loaded = Object.fromEntries(entries.map((e) => [e.chave, e.valor]))
			setBaseline(loaded)
			setValues(loaded)
		}
	}, [data, error, loading, entries])

	const theme: ThemeSettings = useMemo(() => themeFromValues(values), [values])
	const errors = useMemo(() => validate(values), [values])
	const dirty = !!baseline && BULK_KEYS.some((k) => values[k] !== undefined && values[k] !== baseline[k])

	// Leaving with unsaved changes asks first (issue 14, point 9): every link of the portal loads a new page.
	useEffect(() => {
		if (!dirty) return
		const ask = (event: BeforeUnloadEvent) => {
			event.preventDefault()
			event.returnValue = ''
		}
		window.addEventListener('beforeunload', ask)
		return () => window.removeEventListener('beforeunload', ask)
	}, [dirty])

	// Aparência applies at once (2-administration §4); leaving without saving returns to the saved theme.
	useEffect(() => {
		if (baseline) previewPortalTheme(theme, theme.modo !== themeFromValues(baseline).modo)
	}, [theme, baseline])

	if (!mayOpen(user?.tipo, '/settings')) return <AccessDenied {...denialOf('/settings')} />

	const set = (key: string, value: string) => setValues((v) => ({ ...v, [key]: value }))
	const form: SettingsForm = { values, errors, set }

	function restoreDefaults() {
		setValues((v) => {
			const next = { ...v }
			for (const e of entries)
				if (BULK_KEYS.includes(e.chave as (typeof BULK_KEYS)[number]) && e.padrao !== undefined) next[e.chave] = e.padrao
			return next
		})
		toast({ title: 'Configurações restauradas', description: 'Os valores padrão foram aplicados. Salve para confirmar.', variant: 'info' })
	}

	async function save() {
		const first = Object.values(errors)[0]
		if (first) {
			toast({ title: 'Erro ao salvar configurações', description: first, variant: 'destructive' })
			return
		}
		setSaving(true)
		const meta = new Map(entries.map((e) => [e.chave, e]))
		const configuracoes = BULK_KEYS.filter((k) => values[k] !== undefined).map((chave) => ({
			chave,
			valor: values[chave],
			descricao: meta.get(chave)?.descricao ?? chave,
			categoria: meta.get(chave)?.categoria ?? 'geral',
			tipo: meta.get(chave)?.tipo ?? 'string'
		}))
		const result = await mutate(
			'POST /api/configuracoes/bulk',
			{ body: { configuracoes } },
			{
				success: { title: 'Configurações salvas', description: 'As alterações valem para todos os usuários.' },
				errorTitle: 'Erro ao salvar configurações',
				errorFallback: 'Erro ao salvar configurações. Tente novamente.',
				invalidate: ['GET /api/configuracoes']
			}
		)
		if (result) {
			const saved = Object.fromEntries(result.configuracoes.map((e) => [e.chave, e.valor]))
			cacheSettings(result.configuracoes)
			// The new date format, currency and time zone apply to this page at once; other pages get them from the server.
			setDisplayFormats({ dateFormat: saved['app.formato_data'], currency: saved['app.moeda'], timeZone: saved['app.fuso_horario'] })
			setBaseline(saved)
			setValues(saved)
			if (baseline && baseline['tema.modo'] !== saved['tema.modo']) clearThemeOverride()
		}
		setSaving(false)
	}

	const badge =
		source === 'success' ? (
			<span className="badge badge-success badge-soft gap-1">
				<Cloud className="size-3.5" /> Conectado
			</span>
		) : source === 'error' ? (
			<span
				className="badge badge-warning badge-soft gap-1"
				title="Não foi possível carregar do servidor; usando os valores salvos neste navegador."
			>
				<HardDrive className="size-3.5" /> Local
			</span>
		) : (
			<span className="badge badge-ghost">Carregando...</span>
		)

	const readOnly = !isAdmin
	const formTabs = tab === 'geral' || tab === 'aparencia'

	return (
		<div className="space-y-5">
			<div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
				<div className="flex items-center gap-2">{badge}</div>
				{isAdmin && formTabs && (
					<div className="flex flex-wrap gap-2">
						<button type="button" className="btn" onClick={restoreDefaults} disabled={!baseline}>
							<RotateCcw className="size-4" /> Restaurar Padrão
						</button>
						<button type="button" className="btn btn-primary" onClick={save} disabled={!dirty || saving}>
							{saving ? <span className="loading loading-spinner loading-sm" /> : <Save className="size-4" />} Salvar Alterações
						</button>
					</div>
				)}
			</div>

			{dirty && (
				<div role="status" className="alert alert-warning alert-soft">
					<AlertTriangle className="size-5" />
					<span>Você tem alterações não salvas. Clique em 'Salvar Alterações' para aplicá-las a todos os usuários.</span>
				</div>
			)}
			{source === 'error' && (
				<div role="status" className="alert alert-info alert-soft">
					<span>
						Não foi possível carregar as configurações do servidor ({errorText(error)}). Exibindo os valores salvos neste navegador.
					</span>
				</div>
			)}
			{readOnly && formTabs && (
				<div role="status" className="alert alert-soft">
					<span>Somente administradores podem alterar estas configurações; você as vê como leitura.</span>
				</div>
			)}

			<Tabs tabs={TABS} value={tab} onChange={setTab} label="Seções das configurações" grid />

			{formTabs && !baseline ? (
				source === 'error' ? (
					<ErrorPanel title="Erro ao carregar configurações" message={errorText(error)} onRetry={() => $settings.revalidate()} />
				) : (
					<div className="space-y-4" aria-busy="true">
						<div className="skeleton h-40" />
						<div className="skeleton h-40" />
					</div>
				)
			) : null}
			{formTabs && baseline && (
				<fieldset disabled={readOnly} className="min-w-0">
					{tab === 'geral' && <GeneralTab form={form} entries={entries} />}
					{tab === 'aparencia' && <AppearanceTab form={form} />}
				</fieldset>
			)}
			{tab === 'seguranca' && <SecurityTab isAdmin={isAdmin} />}
			{tab === 'sistema' && <SystemTab isAdmin={can(user?.tipo, 'system.manage')} />}
		</div>
	)
}

export default function SettingsPage() {
	return (
		<PageRoot>
			<Settings />
		</PageRoot>
	)
}
