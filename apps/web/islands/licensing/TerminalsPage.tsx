import { useStore } from '@nanostores/react'
import { CalendarPlus, Monitor, Plus, Building2 } from 'lucide-react'
import { map } from 'nanostores'
import { useEffect, useState } from 'react'
import { formatDateTime, maskMac } from '../../../../modules/core'
import type { Terminal } from '../../../../modules/terminals/model'
import { type Column, DataTable } from '../../components/DataTable'
import { Modal, ModalActions } from '../../components/Modal'
import { PageRoot } from '../../components/PageRoot'
import { Pagination } from '../../components/Pagination'
import { EmptyState, ErrorPanel, Field, FormError, PageHeader, RowAction, SearchInput, StatCard, StatGrid } from '../../components/ui'
import { errorText } from '../../lib/api'
import { searchFromUrl, searchOnFirstPage, useSearch } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { $companyOptions, COMPANY_KEYS } from '../../stores/companies'
import { confirmAction } from '../../stores/confirm'

const $query = map({ page: 1, limit: 20, search: '' })
const $terminals = routeStore('GET /api/terminals', $query)

function TerminalDialog({ terminal, onClose }: { terminal: Terminal | null | undefined; onClose: () => void }) {
	const companies = useStore($companyOptions)
	const [empresa, setEmpresa] = useState('')
	const [nome, setNome] = useState('')
	const [mac, setMac] = useState('')
	const [error, setError] = useState<string | null>(null)
	const open = terminal !== undefined
	useEffect(() => {
		if (!open) return
		setEmpresa(terminal ? String(terminal.fk_empresa) : '')
		setNome(terminal?.nome_computador ?? '')
		setMac(terminal ? maskMac(terminal.mac) : '')
		setError(null)
	}, [open, terminal])

	async function save(e: React.FormEvent) {
		e.preventDefault()
		if (!empresa) return setError('Selecione a empresa.')
		if (mac.replace(/:/g, '').length !== 12) return setError('Informe o endereço MAC completo (12 dígitos hexadecimais).')
		const body = { fk_empresa: Number(empresa), nome_computador: nome, mac: mac.replace(/:/g, '') }
		const toasts = {
			success: { title: terminal ? 'Terminal atualizado' : 'Terminal criado', description: nome || maskMac(mac) },
			errorTitle: terminal ? 'Erro ao atualizar terminal' : 'Erro ao criar terminal',
			invalidate: COMPANY_KEYS
		}
		const done = terminal
			? await mutate('PUT /api/terminals/:codigo', { params: { codigo: terminal.codigo }, body }, toasts)
			: await mutate('POST /api/terminals', { body }, toasts)
		if (done) onClose()
	}

	return (
		<Modal
			open={open}
			onClose={onClose}
			title={terminal ? 'Editar terminal' : 'Novo terminal'}
			footer={<ModalActions onCancel={onClose} form="terminal-form" label="Salvar" />}
		>
			<form id="terminal-form" className="space-y-3" onSubmit={save} noValidate>
				<Field label="Empresa *">
					<select className="select w-full" value={empresa} onChange={(e) => setEmpresa(e.target.value)} required>
						<option value="">Selecione…</option>
						{(companies.data?.companies ?? []).map((c) => (
							<option key={c.codigo} value={c.codigo}>
								{c.razao} ({c.terminal_count}/{c.nterminais})
							</option>
						))}
					</select>
				</Field>
				<Field label="Nome do Computador">
					<input className="input w-full" value={nome} maxLength={100} onChange={(e) => setNome(e.target.value)} placeholder="CAIXA-01" />
				</Field>
				<Field label="Endereço MAC *">
					<input
						className="input w-full font-mono"
						value={mac}
						maxLength={17}
						onChange={(e) => setMac(maskMac(e.target.value))}
						placeholder="00:1A:2B:3C:4D:5E"
						required
					/>
				</Field>
				<FormError message={error} />
			</form>
		</Modal>
	)
}

function Terminals() {
	const query = useStore($query)
	const { data, loading, error } = useStore($terminals)
	const [search, setSearch] = useSearch(searchOnFirstPage($query), searchFromUrl)
	const [editing, setEditing] = useState<Terminal | null | undefined>(undefined)

	async function remove(t: Terminal) {
		const name = t.nome_computador || maskMac(t.mac)
		if (
			!(await confirmAction({
				title: 'Excluir terminal?',
				message: `O terminal "${name}" de ${t.nome_empresa} será excluído. O computador poderá ser registrado de novo na próxima verificação de licença, se houver vaga.`,
				confirmLabel: 'Excluir',
				destructive: true
			}))
		)
			return
		await mutate(
			'DELETE /api/terminals/:codigo',
			{ params: { codigo: t.codigo } },
			{ success: { title: 'Terminal excluído', description: name }, errorTitle: 'Erro ao excluir terminal', invalidate: COMPANY_KEYS }
		)
	}

	const columns: Column<Terminal>[] = [
		{ header: 'Computador', hideOnCard: true, cell: (t) => <span className="font-medium">{t.nome_computador || '—'}</span> },
		{
			header: 'Empresa',
			cell: (t) => (
				<span>
					{t.nome_empresa}{' '}
					<span className="text-xs text-base-content/60">
						({t.empresa.terminal_count} / {t.empresa.nterminais})
					</span>
				</span>
			)
		},
		{ header: 'Endereço MAC', cell: (t) => <span className="font-mono text-xs">{maskMac(t.mac)}</span> },
		{ header: 'Cadastro', cell: (t) => <span className="whitespace-nowrap">{formatDateTime(t.data)}</span> },
		{ header: 'Status', cell: () => <span className="badge badge-success badge-sm">Ativo</span> }
	]

	const stats = data?.stats
	return (
		<div>
			<PageHeader title="Gerenciamento de Terminais" subtitle="Computadores registrados nas licenças das empresas.">
				<button type="button" className="btn btn-primary btn-sm" onClick={() => setEditing(null)}>
					<Plus className="size-4" /> Novo Terminal
				</button>
			</PageHeader>
			<StatGrid count={3} className="mb-5 grid grid-cols-3 gap-2 sm:gap-3">
				{stats && (
					<>
						<StatCard title="Total de terminais" value={stats.total} icon={<Monitor className="size-5" />} />
						<StatCard
							title="Empresas com terminais"
							value={`${stats.empresasComTerminais} de ${stats.totalEmpresas}`}
							icon={<Building2 className="size-5" />}
							tone="info"
						/>
						<StatCard title="Registrados hoje" value={stats.hoje} icon={<CalendarPlus className="size-5" />} tone="success" />
					</>
				)}
			</StatGrid>
			<div className="mb-4">
				<SearchInput value={search} onChange={setSearch} placeholder="Buscar terminal..." label="Buscar terminal" />
			</div>
			{error ? (
				<ErrorPanel
					title="Erro ao carregar terminais"
					message={errorText(error, 'Failed to fetch terminals')}
					onRetry={() => $terminals.revalidate()}
				/>
			) : (
				<DataTable
					rows={data?.terminals}
					columns={columns}
					rowKey={(t) => t.codigo}
					loading={loading}
					caption="Terminais"
					cardTitle={(t) => t.nome_computador || maskMac(t.mac)}
					actions={(t) => (
						<>
							<RowAction kind="edit" label={`Editar terminal ${t.nome_computador ?? t.mac}`} onClick={() => setEditing(t)} size="xs" />
							<RowAction kind="delete" label={`Excluir terminal ${t.nome_computador ?? t.mac}`} onClick={() => remove(t)} size="xs" />
						</>
					)}
					empty={
						<EmptyState
							icon={<Monitor className="size-10" />}
							title="Nenhum terminal encontrado"
							hint="Os terminais aparecem aqui quando os sistemas verificam a licença, ou quando você os cadastra."
						/>
					}
				/>
			)}
			<Pagination
				info={data?.pagination}
				noun="terminais"
				onPage={(page) => $query.set({ ...query, page })}
				onPageSize={(limit) => $query.set({ ...query, limit, page: 1 })}
			/>
			<TerminalDialog terminal={editing} onClose={() => setEditing(undefined)} />
		</div>
	)
}

export default function TerminalsPage() {
	return (
		<PageRoot>
			<Terminals />
		</PageRoot>
	)
}
