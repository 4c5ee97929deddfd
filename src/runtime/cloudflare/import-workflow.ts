/** File imports on Cloudflare: started as instances of the IMPORT_WORKFLOW Workflow, whose steps are `step.do`. */
import { WorkflowEntrypoint } from 'cloudflare:workers';
import type { WorkflowEvent, WorkflowStep } from 'cloudflare:workers';
import { buildRunId, STEP_RETRIES, StepFailed } from '../platform';
import type { ImportJob, ImportProcessor, ImportRunner, Platform, RunStep } from '../platform';

/** Imports (and reverts) run as instances of the IMPORT_WORKFLOW Workflow, one per run (its id: buildRunId). */
export function buildWorkflowImports(env: Env): ImportRunner {
  return {
    start: async (job) => {
      const id = buildRunId(job);
      try {
        await env.IMPORT_WORKFLOW.create({ id, params: job });
      } catch (error) {
        // A second start of the same run (a retried request) finds its instance.
        const existing = await env.IMPORT_WORKFLOW.get(id).catch(() => undefined);
        if (!existing) throw error;
      }
    },
  };
}

/** A step is retried (a D1 or R2 hiccup) before the instance fails; each step's result is its JSON text. */
const STEP_CONFIG = { retries: { limit: STEP_RETRIES, delay: '2 seconds', backoff: 'exponential' }, timeout: '10 minutes' } as const;

/**
 * The Workflow class of file imports (binding IMPORT_WORKFLOW): `process` runs the import's steps, each through
 * `step.do` (durable: a completed step is not run again when the instance resumes).
 */
export function defineImportWorkflow(process: ImportProcessor, buildPlatform: (env: Env, ctx: ExecutionContext) => Platform) {
  return class ImportWorkflow extends WorkflowEntrypoint<Env, ImportJob> {
    override async run(event: Readonly<WorkflowEvent<ImportJob>>, step: WorkflowStep): Promise<void> {
      const platform = buildPlatform(this.env, this.ctx);
      const runStep: RunStep = async <T>(name: string, work: () => Promise<T>) => {
        let text: string;
        try {
          text = await step.do(name, STEP_CONFIG, async () => JSON.stringify(await work()));
        } catch (error) {
          // step.do throws once the step's retries are spent.
          throw new StepFailed(name, error);
        }
        const value: unknown = JSON.parse(text);
        return value as T;
      };
      await process({ run: runStep, sleep: (name, milliseconds) => step.sleep(name, milliseconds) }, platform, event.payload);
    }
  };
}
