/**
 * The real Asaas payloads in ../shared/reference/samples/asaas/ (beside the repository, here and in CI), for the
 * tests of the client's parsers and of the stand-in's answer shapes.
 */
import { readdirSync, readFileSync } from 'node:fs'

const DIR = new URL('../../../shared/reference/samples/asaas/', import.meta.url)

/** Every sample's file name. */
export const sampleNames = () => readdirSync(DIR).filter((f) => f.endsWith('.json'))

/** One sample, parsed. */
export const sample = <T = Record<string, unknown>>(name: string): T => JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as T
