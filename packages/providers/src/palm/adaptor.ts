/**
 * PaLM channels (type 11). Google retired the PaLM API (its models were shut down in 2024 and
 * replaced by Gemini), so no request can be served upstream. The type stays so that databases of
 * one-api that hold such channels still load; every request routed to one is answered with an
 * error saying so, without any upstream call (nothing is billed). The error may be retried on
 * another channel of the model, and does not cool the channel down (it is not a failing upstream).
 */
import type { Adaptor, ParsedResponse, StreamTransformer, UpstreamError } from '../adaptor.ts'
import { localError } from '../shared/upstream-error.ts'

export const PALM_RETIRED_MESSAGE =
  'The PaLM API was retired by Google and can no longer be called: edit this channel and change its type to Gemini (type 24), with a Gemini API key and Gemini models'

const retired = (): UpstreamError =>
  localError(410, 'channel_type_retired', PALM_RETIRED_MESSAGE, {
    retryable: true,
    type: 'invalid_request_error',
  })

const noStream: StreamTransformer = {
  push: () => '',
  finish: () => '',
  usage: undefined,
  completionText: '',
  completionTextLength: 0,
  upstreamCompleted: false,
  answered: false,
  keepAlives: 0,
  streamError: undefined,
}

export const palmRetiredAdaptor: Adaptor = {
  name: 'palm',
  buildRequest: retired,
  parseResponse: (): ParsedResponse | UpstreamError => retired(),
  // Never reached: buildRequest refuses every request.
  createStreamTransformer: () => noStream,
}
