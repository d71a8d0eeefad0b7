// Every endpoint of the API, in one list: the router and the OpenAPI document
// are built from it.
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import type { ArticleStore } from './articles/article-store.ts';
import { documentaryRoutes, type DocumentaryDependencies } from './documentaries/routes.ts';
import { articleRoutes } from './articles/routes.ts';
import { feedRoutes } from './feeds/routes.ts';
import type { RouteSpec } from './http/route.ts';
import { intelligenceRoutes, type IntelligenceDependencies } from './intelligence/routes.ts';
import type { MonitorRegistry } from '../monitors/monitor-registry.ts';
import { monitorRoutes } from './monitors/routes.ts';
import type { DeliveryLog } from '../webhooks/delivery-log.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import type { WebhookRegistry } from '../webhooks/webhook-registry.ts';
import { openApiDocument, type DocumentInfo } from './openapi/document.ts';
import type { SourceCatalog } from './sources/source-catalog.ts';
import { sourceRoutes } from './sources/routes.ts';
import { speechRoutes, type SpeechDependencies } from './speech/routes.ts';
import { streamRoutes, type StreamDependencies } from './stream/routes.ts';
import { storyRoutes } from './stories/routes.ts';
import type { StoryStore } from './stories/story-store.ts';
import type { SourceSubscriptions } from './sources/subscriptions.ts';
import { version } from './version.ts';

export interface RouteDependencies {
  clickhouse: ClickHouse;
  store: ArticleStore;
  stories: StoryStore;
  catalog: SourceCatalog;
  subscriptions: SourceSubscriptions;
  intelligence: Omit<IntelligenceDependencies, 'store'>;
  webhooks: WebhookRegistry;
  deliveries: DeliveryLog;
  monitors: MonitorRegistry;
  speech: SpeechDependencies;
  documentaries: DocumentaryDependencies;
  stream: StreamDependencies;
}

export function apiRoutes(deps: RouteDependencies): RouteSpec[] {
  return [
    ...articleRoutes(deps.store, { announced: (id) => deps.stream.announced(id) }, (id) =>
      deps.stories.currentId(id),
    ),
    ...storyRoutes(deps.stories, deps.store),
    ...sourceRoutes(deps.catalog, deps.subscriptions),
    ...feedRoutes(deps.clickhouse, deps.store),
    ...intelligenceRoutes({ ...deps.intelligence, store: deps.store }),
    ...webhookRoutes(deps.webhooks, deps.deliveries, deps.monitors, deps.catalog),
    ...monitorRoutes(deps.monitors),
    ...speechRoutes(deps.speech),
    ...documentaryRoutes(deps.documentaries),
    ...streamRoutes(deps.stream),
  ];
}

/** Dependencies for describing the API without serving it: using any of them is a bug, and says so. */
const notWired = new Proxy({} as RouteDependencies, {
  get: (_, dependency) =>
    new Proxy(
      {},
      {
        get: (__, member) => {
          throw new Error(
            `${String(dependency)}.${String(member)} used: this route list only describes the API`,
          );
        },
      },
    ),
});

/** The route list, for describing the API without serving it (its handlers must not be called). */
export const describedRoutes = (): RouteSpec[] => apiRoutes(notWired);

/** The OpenAPI document, without connecting to anything (for generators and tests). */
export function describeApi(info: Partial<DocumentInfo> = {}) {
  return openApiDocument(describedRoutes(), { version, ...info });
}
