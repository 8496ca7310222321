/**
 * Checks a Responses API stream event against the schema of its own type in OpenAI's published
 * document (tests only): the schema of the event union reports no issue that names the branch.
 */
import { schemaIssues } from './openai-schema.ts'

/** The schema of each event type (the union's own issues name no branch). */
const EVENT_SCHEMAS: Record<string, string> = {
  'response.created': 'ResponseCreatedEvent',
  'response.in_progress': 'ResponseInProgressEvent',
  'response.completed': 'ResponseCompletedEvent',
  'response.incomplete': 'ResponseIncompleteEvent',
  'response.failed': 'ResponseFailedEvent',
  'response.output_item.added': 'ResponseOutputItemAddedEvent',
  'response.output_item.done': 'ResponseOutputItemDoneEvent',
  'response.content_part.added': 'ResponseContentPartAddedEvent',
  'response.content_part.done': 'ResponseContentPartDoneEvent',
  'response.output_text.delta': 'ResponseTextDeltaEvent',
  'response.output_text.done': 'ResponseTextDoneEvent',
  'response.reasoning_text.delta': 'ResponseReasoningTextDeltaEvent',
  'response.reasoning_text.done': 'ResponseReasoningTextDoneEvent',
  'response.function_call_arguments.delta': 'ResponseFunctionCallArgumentsDeltaEvent',
  'response.function_call_arguments.done': 'ResponseFunctionCallArgumentsDoneEvent',
  error: 'ResponseErrorEvent',
}

/** Issues of one event ([] when valid); an event type not listed here is an issue itself. */
export function responsesEventIssues(event: Record<string, unknown>): string[] {
  const schema = EVENT_SCHEMAS[String(event.type)]
  return schema ? schemaIssues(schema, event) : [`no schema known for event type ${String(event.type)}`]
}
