import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react'
import type { ReactNode } from 'react'
import { type PageInfo, PAGE_SIZES } from '../../../modules/core'

interface PaginationProps {
	info: PageInfo | undefined
	noun: string
	onPage: (page: number) => void
	onPageSize: (size: number) => void
}

/** 'Mostrando X a Y de Z …', page size 10/20/50/100, first/previous/next/last. */
export function Pagination({ info, noun, onPage, onPageSize }: PaginationProps) {
	if (!info) return null
	const from = info.total === 0 ? 0 : (info.page - 1) * info.limit + 1
	const to = Math.min(info.page * info.limit, info.total)
	return (
		<nav className="flex flex-col items-center justify-between gap-3 sm:flex-row" aria-label="Paginação">
			<p className="text-sm text-base-content/70">
				Mostrando {from} a {to} de {info.total} {noun}
			</p>
			<div className="flex items-center gap-2">
				<label className="flex items-center gap-2 text-sm">
					<span className="hidden sm:inline">Por página</span>
					<select
						className="select select-sm w-20"
						value={info.limit}
						onChange={(e) => onPageSize(Number(e.target.value))}
						aria-label="Itens por página"
					>
						{PAGE_SIZES.map((n) => (
							<option key={n} value={n}>
								{n}
							</option>
						))}
					</select>
				</label>
				<div className="join">
					<PageButton
						label="Primeira página"
						disabled={!info.hasPrev}
						onClick={() => onPage(1)}
						icon={<ChevronsLeft className="size-4" />}
					/>
					<PageButton
						label="Página anterior"
						disabled={!info.hasPrev}
						onClick={() => onPage(info.page - 1)}
						icon={<ChevronLeft className="size-4" />}
					/>
					<span className="btn btn-sm join-item pointer-events-none">
						{info.page} / {info.totalPages}
					</span>
					<PageButton
						label="Próxima página"
						disabled={!info.hasNext}
						onClick={() => onPage(info.page + 1)}
						icon={<ChevronRight className="size-4" />}
					/>
					<PageButton
						label="Última página"
						disabled={!info.hasNext}
						onClick={() => onPage(info.totalPages)}
						icon={<ChevronsRight className="size-4" />}
					/>
				</div>
			</div>
		</nav>
	)
}

/** One of the first/previous/next/last buttons: an icon, named for screen readers by `label`. */
function PageButton({ label, disabled, onClick, icon }: { label: string; disabled: boolean; onClick: () => void; icon: ReactNode }) {
	return (
		<button type="button" className="btn btn-sm join-item" disabled={disabled} onClick={onClick} aria-label={label}>
			{icon}
		</button>
	)
}
