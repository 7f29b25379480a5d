/**
 * The generator: runs the processor chain for one request and reports one progress line per step.
 * The staging folder is removed whatever happens; nothing reaches the destination unless every
 * step before the move succeeded.
 */
import { rmSync } from 'node:fs';
import type { BlueprintCatalog } from '../blueprint/catalog';
import type { GeneratorConfig } from '../config/generator-config';
import type { GenerationContext, GenerationRequest, GenerationResult, Processor } from './context';
import { PROCESSORS } from './steps';

export interface GeneratorOptions {
  catalog: BlueprintCatalog;
  config: GeneratorConfig;
  /** One line per step (`[3/6] input validation: 7 answers valid`). Default: nothing. */
  progress?: (line: string) => void;
  /** Replaces the chain (tests insert failing steps). */
  processors?: readonly Processor[];
}

export interface Generator {
  generate(request: GenerationRequest): Promise<GenerationResult>;
}

export function makeGenerator(options: GeneratorOptions): Generator {
  const processors = options.processors ?? PROCESSORS;
  const progress = options.progress ?? (() => undefined);
  return {
    async generate(request) {
      const started = Date.now();
      const generateComposed = (composed: GenerationRequest) =>
        makeGenerator({ catalog: options.catalog, config: options.config }).generate(composed);
      const ctx: GenerationContext = {
        request,
        config: options.config,
        catalog: options.catalog,
        generateComposed,
        documents: {},
      };
      try {
        for (const [i, step] of processors.entries()) {
          const detail = await step.run(ctx);
          progress(`[${i + 1}/${processors.length}] ${step.name}: ${detail}`);
        }
      } finally {
        if (ctx.stagingRoot) rmSync(ctx.stagingRoot, { recursive: true, force: true });
      }
      return {
        blueprint: request.blueprint,
        blueprintVersion: ctx.blueprint?.version ?? '',
        destination: ctx.destination ?? '',
        files: ctx.files ?? [],
        dryRun: request.dryRun === true,
        millis: Date.now() - started,
      };
    },
  };
}
