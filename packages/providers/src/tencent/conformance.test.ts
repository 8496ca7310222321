import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { hunyuanAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200) => ({ status, body: fixture(name) })
const sse = (name: string) => ({ ...reply(name), headers: { 'content-type': 'text/event-stream' } })
const model = 'hunyuan-lite'
const chat = { model, messages: [{ role: 'user', content: '你好' }] }
const hello = [{ Role: 'user', Content: '你好' }]
const request = (body: Record<string, unknown>) => jsonRelayRequest('chat', { ...chat, ...body })
// The function of Hunyuan's function-calling example.
const parameters = {
  type: 'object',
  properties: { location: { type: 'string', description: '城市，例如：北京' } },
  required: ['location'],
}
const weatherTool = {
  type: 'function',
  function: { name: 'get_current_weather', description: '获取指定城市的天气', parameters },
}
const hunyuanTool = {
  Type: 'function',
  Function: {
    Name: 'get_current_weather',
    Description: '获取指定城市的天气',
    Parameters: JSON.stringify(parameters),
  },
}
const imageUrl = 'https://qidian-qbot-1251316161.cos.ap-guangzhou.myqcloud.com/public/demo.png'
const channel = {
  type: 23,
  key: '1300000000|AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE|Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
}

runAdaptorConformance(hunyuanAdaptor, {
  channel,
  // Signed per request (the payload's hash is in the signature): the mock upstream recomputes it.
  auth: [
    'Authorization',
    /^TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE\/1970-01-01\/hunyuan\/tc3_request, SignedHeaders=content-type;host;x-tc-action, Signature=[0-9a-f]{64}$/,
  ],
  plain: {
    request: jsonRelayRequest(
      'chat',
      { ...chat, model: 'hunyuan' },
      { requestedModel: 'hunyuan', mappedModel: model },
    ),
    sent: { Model: model, Messages: hello, Stream: false },
  },
  system: {
    request: request({ messages: [{ role: 'system', content: '你是一个翻译助手' }, ...chat.messages] }),
    sent: { Messages: [{ Role: 'system', Content: '你是一个翻译助手' }, ...hello] },
  },
  multiTurn: {
    request: request({
      messages: [
        { role: 'user', content: '你好' },
        { role: 'assistant', content: '你好！有什么可以帮您？' },
        { role: 'user', content: '介绍一下你自己' },
      ],
    }),
    sent: {
      Messages: [
        { Role: 'user', Content: '你好' },
        { Role: 'assistant', Content: '你好！有什么可以帮您？' },
        { Role: 'user', Content: '介绍一下你自己' },
      ],
    },
  },
  image: {
    request: request({
      model: 'hunyuan-vision',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: imageUrl } },
            { type: 'text', text: '这是什么？' },
          ],
        },
      ],
    }),
    sent: {
      Messages: [
        {
          Role: 'user',
          Contents: [
            { Type: 'image_url', ImageUrl: { Url: imageUrl } },
            { Type: 'text', Text: '这是什么？' },
          ],
        },
      ],
    },
  },
  tools: {
    request: request({
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'get_current_weather' } },
    }),
    sent: { Tools: [hunyuanTool], ToolChoice: 'custom', CustomTool: hunyuanTool },
  },
  text: {
    request: request({}),
    reply: reply('chat.json'),
    answer: {
      text: '您好！我是腾讯混元大模型，很高兴为您服务。',
      finishReason: 'stop',
      usage: { promptTokens: 3, completionTokens: 14, totalTokens: 17 },
    },
  },
  toolCall: {
    request: request({ tools: [weatherTool] }),
    reply: reply('chat-tool-call.json'),
    answer: {
      tool: { name: 'get_current_weather', arguments: { location: '北京' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 200, completionTokens: 23, totalTokens: 223 },
    },
  },
  empty: {
    request: request({}),
    reply: reply('chat-empty.json'),
    answer: {
      text: '',
      finishReason: 'stop',
      usage: { promptTokens: 12, completionTokens: 0, totalTokens: 12 },
    },
  },
  filtered: {
    request: request({}),
    reply: reply('chat-sensitive.json'),
    answer: { text: '', finishReason: 'content_filter', usage: { promptTokens: 25, totalTokens: 25 } },
  },
  stream: {
    request: request({ stream: true }),
    sent: { Stream: true },
    reply: sse('stream.sse'),
    answer: {
      text: '我是腾讯混元大模型 🐧',
      finishReason: 'stop',
      usage: { promptTokens: 3, completionTokens: 6, totalTokens: 9 },
    },
  },
  streamedToolCall: {
    request: request({ stream: true, tools: [weatherTool] }),
    reply: sse('stream-tool-call.sse'),
    answer: {
      tool: { name: 'get_current_weather', arguments: { location: '北京' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 200, completionTokens: 23, totalTokens: 223 },
    },
  },
  // Tencent Cloud answers its errors with HTTP 200; the code inside decides.
  errors: {
    badRequest: reply('error-invalid-parameter.json'),
    unauthorized: reply('error-signature.json'),
    modelNotFound: reply('error-model.json'),
    rateLimited: reply('error-limit.json'),
    serverError: reply('error-internal.json'),
  },
})
