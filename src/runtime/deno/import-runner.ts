/**
 * The Deno equivalent of the import Workflow: each run's steps (an import's, a revert's) run in-process, every
 * completed step's result persisted in SQLite (coordinators.sqlite), so a restart resumes the run at its first step not
 * completed (the runs still open are started again when the host starts). A step that fails is tried again STEP_RETRIES
 * times (2 s, doubling), as a Workflow's step; a run that fails is tried again after a delay, its completed steps
 * skipped, up to MAX_ATTEMPTS times. The tables' `import_id` column holds the run's id (buildRunId: the import's id, or
 * `<id>-revert`).
 */
import type { DatabaseSync } from 'node:sqlite';
import { buildRunId, STEP_RETRIES, StepFailed } from '../platform';
import type { ImportJob, ImportProcessor, ImportRunner, Platform, RunStep } from '../platform';
import { readColumn } from './sqlite-engine';

const MAX_ATTEMPTS = 5;
const RETRY_DELAY_MS = 2_000;

export class LocalImportRunner implements ImportRunner {
  private processor: ImportProcessor | undefined;
  private platform: Platform | undefined;
  private readonly running = new Map<string, Promise<void>>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  /** Waits under way (a step's retry delay, a step's sleep): close() ends them. */
  private readonly waits = new Set<() => void>();
  private closed = false;

  constructor(private readonly sqlite: DatabaseSync) {
    sqlite.exec(
      'CREATE TABLE IF NOT EXISTS import_runs (import_id TEXT PRIMARY KEY, job TEXT NOT NULL);' +
        'CREATE TABLE IF NOT EXISTS import_run_steps (import_id TEXT NOT NULL, name TEXT NOT NULL, result TEXT NOT NULL, PRIMARY KEY (import_id, name));',
    );
  }

  async start(job: ImportJob): Promise<void> {
    this.sqlite.prepare('INSERT OR IGNORE INTO import_runs (import_id, job) VALUES (?, ?)').all(buildRunId(job), JSON.stringify(job));
    this.launch(job, 1);
  }

  /** Starts running imports with `processor` (the runs an earlier process left open too). */
  begin(platform: Platform, processor: ImportProcessor): void {
    this.platform = platform;
    this.processor = processor;
    for (const row of this.sqlite.prepare('SELECT job FROM import_runs').all()) {
      const job = JSON.parse(String(readColumn(row, 'job'))) as ImportJob;
      this.launch(job, 1);
    }
  }

  private launch(job: ImportJob, attempt: number): void {
    const id = buildRunId(job);
    if (this.closed || !this.processor || !this.platform || this.running.has(id)) return;
    const run = this.run(job, this.processor, this.platform, attempt).finally(() => this.running.delete(id));
    this.running.set(id, run);
  }

  private readStep(importId: string, name: string): string | undefined {
    const [row] = this.sqlite.prepare('SELECT result FROM import_run_steps WHERE import_id = ? AND name = ?').all(importId, name);
    return row ? String(readColumn(row, 'result')) : undefined;
  }

  private async run(job: ImportJob, processor: ImportProcessor, platform: Platform, attempt: number): Promise<void> {
    const id = buildRunId(job);
    const runStep: RunStep = async <T>(name: string, work: () => Promise<T>) => {
      const done = this.readStep(id, name);
      const text = done ?? JSON.stringify(await this.retry(name, work));
      if (done === undefined) {
        this.sqlite.prepare('INSERT INTO import_run_steps (import_id, name, result) VALUES (?, ?, ?)').all(id, name, text);
      }
      const value: unknown = JSON.parse(text);
      return value as T;
    };
    try {
      const sleep = (_name: string, milliseconds: number) => this.wait(milliseconds);
      await processor({ run: runStep, sleep }, platform, job);
      this.sqlite.prepare('DELETE FROM import_run_steps WHERE import_id = ?').all(id);
      this.sqlite.prepare('DELETE FROM import_runs WHERE import_id = ?').all(id);
    } catch (error) {
      if (this.closed) return;
      console.error(
        JSON.stringify({ level: 'error', message: 'import run failed', importId: job.importId, attempt, error: String(error) }),
      );
      if (attempt >= MAX_ATTEMPTS) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.launch(job, attempt + 1);
      }, RETRY_DELAY_MS * attempt);
      this.timers.add(timer);
    }
  }

  /** A step's work, tried again STEP_RETRIES times after a failure (2 s, doubling); then StepFailed. */
  private async retry<T>(name: string, work: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        if (this.closed) throw error;
        if (attempt >= STEP_RETRIES) throw new StepFailed(name, error);
      }
      await this.wait(RETRY_DELAY_MS * 2 ** attempt);
    }
  }

  /** A delay that close() cuts short (the run then stops: its next start resumes it). */
  private async wait(milliseconds: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waits.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, milliseconds);
      this.waits.add(wake);
    });
    if (this.closed) throw new Error('The import runner closed.');
  }

  /** Waits for the runs in progress (their next start resumes them after the last completed step). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const wake of this.waits) wake();
    await Promise.allSettled([...this.running.values()]);
  }
}
