import { defineConfig } from 'drizzle-kit'

// PostgreSQL's migrations, generated from the same schema files as SQLite's (db/columns.ts builds PostgreSQL tables
// when DATABASE_URL is set): `bun run db:generate:pg`. No database is contacted.
export default defineConfig({
	dialect: 'postgresql',
	schema: './modules/*/schema.ts',
	out: './db/migrations-pg',
	casing: 'snake_case'
})
