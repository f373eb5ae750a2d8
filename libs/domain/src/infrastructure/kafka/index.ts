// The one Kafka wrapper (DESIGN.md "Shape"): all direct kafkajs use lives in this
// folder. Apps import these names, never kafkajs itself.
export { createKafka, jsonLineLogCreator, type KafkaClientConfig } from './client';
export { announceKafkajsPatches, kafkajsPatches, type KafkajsPatchState } from './patches';
export { decodeEvent, encodeEvent, headerString } from './codec';
export { EventConsumer, type EventConsumerOptions, type EventHandler, type MessageContext } from './consumer';
export { deadLetterHeaders, type DeadLetterInfo } from './dead-letter';
export { listDeadLetters, readTopic, replayDeadLetter, type DeadLetter } from './dead-letter-topic';
export { EVENT_HEADERS, areaInData, describedByEvent, describedByHeaders, eventHeaders, type AreaOf, type EventDescription } from './headers';
export { KafkaEventPublisher, type KafkaEventPublisherOptions, type OutgoingMessage } from './publisher';
export { DEFAULT_RETRY, backoffMs, isRetriable, type RetryPolicy } from './retry';
export { installShutdown, type Closeable } from './shutdown';
export { DEFAULT_MAX_MESSAGE_BYTES } from './message-size';
export { DEFAULT_PARTITIONS, ensureTopics, topicNames, type TopicNames, type TopicOptions } from './topics';
export type { Kafka } from 'kafkajs';
