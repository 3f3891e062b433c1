import { useStore } from '@nanostores/react'
import { Lock, Save, Timer } from 'lucide-react'
import { useEffect, useState } from 'react'
import { LOGIN_LIMITS, PASSWORD_RULES } from '../../../../modules/core'
import { type AutoLogoutConfig, SETTING_DEFINITIONS, fitsRange, rangeMessage } from '../../../../modules/settings/model'
import { SettingsCard, SettingsTab } from './SettingsTab'
import { Field } from '../../components/ui'
import { mutate } from '../../lib/mutate'
import { $autoLogout, setAutoLogoutConfig } from '../../stores/inactivity'

const PRESETS = [15, 30, 45, 60, 120, 240]
const MINUTES = SETTING_DEFINITIONS['seguranca.auto_logout_minutos'].range

/** Warning before the automatic logout for a preset (2-administration §4): 5 min up to 30, 10 up to 60, 15 above. */
export function presetWarning(minutes: number): number {
	return minutes <= 30 ? 5 : minutes <= 60 ? 10 : 15
}

function AutoLogoutCard({ isAdmin }: { isAdmin: boolean }) {
	const saved = useStore($autoLogout)
	const [enabled, setEnabled] = useState(saved.enabled)
	const [minutes, setMinutes] = useState(saved.timeoutMinutes)
	const [warning, setWarning] = useState(presetWarning(saved.timeoutMinutes))
	const [advanced, setAdvanced] = useState(!PRESETS.includes(saved.timeoutMinutes))
	const [saving, setSaving] = useState(false)
	useEffect(() => {
		setEnabled(saved.enabled)
		setMinutes(saved.timeoutMinutes)
		setAdvanced((a) => a || !PRESETS.includes(saved.timeoutMinutes))
	}, [saved])

	// The server's own rule (the setting's range), with its words beside the field.
	const problem = fitsRange(MINUTES, String(minutes)) ? null : rangeMessage(MINUTES)
	const invalid = problem !== null
	const maxWarning = Math.max(1, Math.floor(minutes / 2))
	const changed = enabled !== saved.enabled || minutes !== saved.timeoutMinutes

	function choosePreset(m: number) {
		setMinutes(m)
		setWarning(presetWarning(m))
	}

	async function save() {
		if (invalid) return
		setSaving(true)
		const config: AutoLogoutConfig = { enabled, timeoutMinutes: minutes }
		const result = await mutate(
			'POST /api/configuracoes/auto-logout',
			{ body: config },
			{
				success: {
					title: 'Configurações atualizadas',
					description: enabled ? `Logout automático após ${minutes} minutos de inatividade.` : 'Logout automático desativado.'
				},
				errorTitle: 'Erro ao atualizar configurações'
			}
		)
		// 1-core §7: when the call fails, the local values are still applied.
		setAutoLogoutConfig(result ? { enabled: result.enabled, timeoutMinutes: result.timeoutMinutes } : config)
		setSaving(false)
	}

	return (
		<SettingsCard
			icon={<Timer className="mt-0.5 size-5 text-primary" aria-hidden="true" />}
			title="Logout automático"
			description="Encerra a sessão após um período sem atividade. Vale para todos os usuários."
			top
		>
			<fieldset disabled={!isAdmin} className="mt-4 space-y-4">
				<label className="flex cursor-pointer items-center justify-between gap-4 rounded-field border border-base-300 p-3">
					<span className="font-medium">Ativar logout automático</span>
					<input type="checkbox" className="toggle toggle-primary" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
				</label>
				<div>
					<p className="mb-2 text-sm font-medium">Tempo de inatividade</p>
					<fieldset className="flex flex-wrap gap-2" aria-label="Tempos pré-definidos">
						{PRESETS.map((m) => (
							<button
								key={m}
								type="button"
								className={`btn btn-sm ${minutes === m ? 'btn-primary' : ''}`}
								aria-pressed={minutes === m}
								onClick={() => choosePreset(m)}
								disabled={!enabled}
							>
								{m < 60 ? `${m} min` : `${m / 60} h`}
							</button>
						))}
					</fieldset>
				</div>
				<label className="flex cursor-pointer items-center gap-2 text-sm">
					<input type="checkbox" className="checkbox checkbox-sm" checked={advanced} onChange={(e) => setAdvanced(e.target.checked)} />
					Configuração avançada
				</label>
				{advanced && (
					<div className="grid gap-4 sm:grid-cols-2">
						<Field label="Minutos de inatividade" error={problem} hint="De 5 a 480 minutos">
							<div className="flex items-center gap-3">
								<input
									type="range"
									className="range range-primary range-sm grow"
									min={5}
									max={480}
									step={5}
									value={Math.min(480, Math.max(5, minutes || 5))}
									aria-label="Minutos de inatividade (controle deslizante)"
									onChange={(e) => setMinutes(Number(e.target.value))}
									disabled={!enabled}
								/>
								<input
									type="number"
									className="input input-sm w-24"
									min={5}
									max={480}
									value={Number.isFinite(minutes) ? minutes : ''}
									onChange={(e) => setMinutes(Math.trunc(Number(e.target.value)))}
									disabled={!enabled}
									aria-invalid={invalid}
								/>
							</div>
						</Field>
						<Field
							label="Aviso antes do logout (minutos)"
							hint={`De 1 a ${maxWarning} minutos · apenas exibição: o aviso do portal chega 5 minutos antes`}
						>
							<input
								type="number"
								className="input input-sm w-24"
								min={1}
								max={maxWarning}
								value={warning}
								onChange={(e) => setWarning(Math.min(maxWarning, Math.max(1, Math.trunc(Number(e.target.value)) || 1)))}
								disabled={!enabled}
							/>
						</Field>
					</div>
				)}
				<p className="text-sm text-base-content/70">
					{enabled
						? `Sessões sem atividade terminam após ${minutes} minutos; aviso ${advanced ? warning : presetWarning(minutes)} minutos antes.`
						: 'As sessões terminam apenas pelo limite absoluto do servidor.'}
				</p>
				{isAdmin && (
					<button type="button" className="btn btn-primary" onClick={save} disabled={saving || invalid || !changed}>
						{saving ? <span className="loading loading-spinner loading-sm" /> : <Save className="size-4" />} Salvar logout automático
					</button>
				)}
			</fieldset>
		</SettingsCard>
	)
}

function DisplayOnly({ label, value }: { label: string; value: string }) {
	return (
		<div className="flex items-center justify-between gap-3 rounded-field border border-base-300 p-3 text-sm">
			<span>{label}</span>
			<span className="font-medium">{value}</span>
		</div>
	)
}

const seconds = (n: number) => (n % 60 === 0 ? `${n / 60} min` : `${n} s`)

/**
 * What the server enforces (issue 13), instead of the display-only defaults of 2-administration §5.8, which the portal
 * never applied: the figures come from core/policy.ts, the same constants the server uses. Nothing here is saved.
 */
export function SecurityPolicyCard() {
	const { windowMinutes, perAccountAndAddress, perAddress, accountSlowdownAfter, accountMaxDelaySeconds } = LOGIN_LIMITS
	return (
		<SettingsCard
			icon={<Lock className="mt-0.5 size-5 text-primary" aria-hidden="true" />}
			title="Políticas de segurança"
			description="O que o servidor aplica hoje a todos os usuários. Não é configurável nesta tela."
			action={<span className="badge badge-ghost">Aplicadas pelo servidor</span>}
			top
		>
			<div className="mt-4 grid gap-3 md:grid-cols-2">
				<div className="space-y-2">
					<p className="text-sm font-medium">Política de senha</p>
					<DisplayOnly label="Tamanho mínimo" value={`${PASSWORD_RULES.minLength} caracteres`} />
					<DisplayOnly label="Senhas mais usadas e sequências (123456, abcdef…)" value="Recusadas" />
					<DisplayOnly label="O próprio CNPJ como senha" value="Recusado" />
					<DisplayOnly label="Maiúsculas, números ou símbolos" value="Não exigidos" />
					<DisplayOnly label="Renovação periódica" value="Não exigida" />
					<DisplayOnly label="Armazenamento" value="Argon2id" />
				</div>
				<div className="space-y-2">
					<p className="text-sm font-medium">Tentativas de login (janela de {windowMinutes} minutos)</p>
					<DisplayOnly label="Um endereço em uma conta" value={`${perAccountAndAddress} falhas, depois aguarda`} />
					<DisplayOnly label="Um endereço em qualquer conta" value={`${perAddress} falhas, depois aguarda`} />
					<DisplayOnly
						label={`Conta com mais de ${accountSlowdownAfter} falhas`}
						value={`endereços com falhas aguardam de 1 s a ${seconds(accountMaxDelaySeconds)}`}
					/>
					<DisplayOnly label="Bloqueio da conta" value="Nunca: o dono entra de um endereço sem falhas" />
					<DisplayOnly label="Senha atual em Alterar Senha" value="Conta como tentativa de login" />
					<DisplayOnly label="Acessos recusados (401, 403, 404)" value="Em Configurações › Sistema" />
					<DisplayOnly label="Autenticação em dois fatores" value="Não disponível" />
				</div>
			</div>
		</SettingsCard>
	)
}

export function SecurityTab({ isAdmin }: { isAdmin: boolean }) {
	return (
		<SettingsTab
			open={<AutoLogoutCard isAdmin={isAdmin} />}
			isAdmin={isAdmin}
			denied="As demais configurações de segurança são exclusivas de administradores."
		>
			<SecurityPolicyCard />
		</SettingsTab>
	)
}
