import type { Admin, Kafka } from 'kafkajs';
import { AppError } from '../../errors';
import { DEFAULT_MAX_MESSAGE_BYTES, raiseMessageLimit, topicConfigEntries } from './message-size';

/**
 * Topics by aggregate, keyed by aggregate id (DESIGN.md "Kafka"), plus the dead-letter topic
 * where a message that keeps failing goes with its error (the partition moves on).
 */
export interface TopicNames {
  readonly documents: string;
  /**
   * `DocumentReceived` (a document received by a supplier hosted here, the first event of its copy's
   * stream): a topic of its own, read by the webhook dispatcher alone, which so no longer fetches and
   * passes over every document's other events (issue 11; EventPlugin.eventTopics).
   */
  readonly received: string;
  /**
   * Reports to tax authorities (`report-*`, `chain-*` streams): a topic of their own, so that only the
   * workers that handle them fetch them, and the reporting worker no longer fetches and passes over every
   * document's events (0.10-0.14 of a core under the end-to-end load, for nothing; issue 11).
   */
  readonly reports: string;
  readonly suppliers: string;
  readonly participants: string;
  readonly deadLetter: string;
}

/** Default partition count; matches the broker's `num.partitions` in scripts/lib/kafka.mjs. */
export const DEFAULT_PARTITIONS = 6;

/** The topic names under a prefix (`KAFKA_TOPIC_PREFIX`, default `einvoice`). */
export function topicNames(prefix: string): TopicNames {
  return {
    documents: `${prefix}.documents`,
    received: `${prefix}.received`,
    reports: `${prefix}.reports`,
    suppliers: `${prefix}.suppliers`,
    participants: `${prefix}.participants`,
    deadLetter: `${prefix}.dead-letter`,
  };
}

/** How the topics are made: partitions of new topics, and the largest message every topic takes. */
export interface TopicOptions {
  /** New topics only: an existing topic keeps its partitions (keys would move). Default 6. */
  readonly partitions?: number;
  /** Topic `max.message.bytes` (`KAFKA_MAX_MESSAGE_BYTES`, default 32 MiB; message-size.ts). */
  readonly maxMessageBytes?: number;
}

/**
 * Creates the topics if missing, with a `max.message.bytes` that carries the largest event
 * the API produces, and raises that limit on topics that already exist (idempotent). Resolves
 * once every partition has a leader. The broker runs with `auto.create.topics.enable=false`;
 * `waitForLeaders` avoids the transient LEADER_NOT_AVAILABLE a producer sees right after
 * creation (shared/notes/kafka-without-docker.md). Returns the existing topics whose limit it raised.
 */
export async function ensureTopics(client: Admin | Kafka, prefix: string, options: TopicOptions = {}): Promise<string[]> {
  const { partitions = DEFAULT_PARTITIONS, maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES } = options;
  const ownAdmin = isKafka(client) ? client.admin() : undefined;
  const admin = ownAdmin ?? (client as Admin);
  if (ownAdmin) await ownAdmin.connect();
  const topics = Object.values(topicNames(prefix));
  const configEntries = topicConfigEntries(maxMessageBytes);
  try {
    try {
      await admin.createTopics({ waitForLeaders: true, topics: topics.map((topic) => ({ topic, numPartitions: partitions, configEntries })) });
    } catch (error) {
      // In KRaft the broker's metadata cache learns of a new topic a moment after the controller
      // created it (KAFKA-15780), and kafkajs's waitForLeaders only retries LEADER_NOT_AVAILABLE,
      // so it can fail with UNKNOWN_TOPIC_OR_PARTITION (seen on 3.9.1; tulios/kafkajs#1563).
      if (!isMetadataLag(error)) throw error;
    }
    // Also when the topics already existed: another process may have created them just now.
    await waitForLeaders(admin, topics);
    return await raiseMessageLimit(admin, topics, maxMessageBytes);
  } finally {
    if (ownAdmin) await ownAdmin.disconnect();
  }
}

async function waitForLeaders(admin: Admin, topics: string[], timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const metadata = await admin.fetchTopicMetadata({ topics });
      if (metadata.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
    } catch (error) {
      if (!isMetadataLag(error)) throw error;
    }
    if (Date.now() > deadline) {
      throw new AppError('unavailable', 'KAFKA.TOPICS_NOT_READY', `Topics ${topics.join(', ')} have no leaders after ${timeoutMs} ms.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isMetadataLag(error: unknown): boolean {
  const type = (error as { type?: unknown } | null)?.type;
  return type === 'UNKNOWN_TOPIC_OR_PARTITION' || type === 'LEADER_NOT_AVAILABLE';
}

function isKafka(client: Admin | Kafka): client is Kafka {
  return typeof (client as Kafka).admin === 'function';
}
