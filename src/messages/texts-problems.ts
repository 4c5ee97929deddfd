/** Titles of the problem codes and the summary of a failed validation, in en-US, pt-PT and es-ES. */
export const PROBLEM_TEXTS = {
  'title.ValidationFailed': ['The request is not valid', 'O pedido não é válido', 'La solicitud no es válida'],
  'title.RecordNotFound': ['The record does not exist', 'O registo não existe', 'El registro no existe'],
  'title.DuplicateKey': [
    'A record with this key already exists',
    'Já existe um registo com esta chave',
    'Ya existe un registro con esta clave',
  ],
  'title.UnknownReference': ['A referenced record does not exist', 'Um registo referido não existe', 'Un registro referido no existe'],
  'title.ReferenceInUse': ['The record is still referenced', 'O registo ainda é referido', 'El registro aún está referido'],
  'title.InvalidStateTransition': [
    'The state change is not allowed',
    'A mudança de estado não é permitida',
    'El cambio de estado no está permitido',
  ],
  'title.InvalidODataQuery': ['The OData query is not valid', 'A consulta OData não é válida', 'La consulta OData no es válida'],
  'title.InvalidAddress': [
    'The tenant or organization segment is not valid',
    'O segmento do tenant ou da organização não é válido',
    'El segmento del tenant o de la organización no es válido',
  ],
  'title.AmbiguousKey': [
    'The key matches more than one record',
    'A chave corresponde a mais de um registo',
    'La clave corresponde a más de un registro',
  ],
  'title.InvalidCursor': [
    'The change feed cursor is not valid',
    'O cursor do feed de alterações não é válido',
    'El cursor del feed de cambios no es válido',
  ],
  'title.CursorExpired': [
    'The change feed cursor is older than its retention; resynchronize with /odata',
    'O cursor do feed de alterações é mais antigo do que a retenção; ressincronize com /odata',
    'El cursor del feed de cambios es más antiguo que la retención; resincronice con /odata',
  ],
  'title.Unauthorized': ['Authentication is required', 'É necessária autenticação', 'Se requiere autenticación'],
  'title.Forbidden': [
    'Access to this resource is forbidden',
    'O acesso a este recurso é proibido',
    'El acceso a este recurso está prohibido',
  ],
  'title.NotFound': ['Not found', 'Não encontrado', 'No encontrado'],
  'title.MethodNotAllowed': ['Method not allowed', 'Método não permitido', 'Método no permitido'],
  'title.IdempotencyKeyInUse': [
    'A request with this Idempotency-Key is still in progress',
    'Um pedido com esta Idempotency-Key ainda está em curso',
    'Una solicitud con esta Idempotency-Key aún está en curso',
  ],
  'title.Conflict': [
    'The request conflicts with an operation under way',
    'O pedido entra em conflito com uma operação em curso',
    'La solicitud entra en conflicto con una operación en curso',
  ],
  'title.PreconditionFailed': ['The record has changed', 'O registo foi alterado', 'El registro ha cambiado'],
  'title.PayloadTooLarge': [
    'The request body is too large',
    'O corpo do pedido é demasiado grande',
    'El cuerpo de la solicitud es demasiado grande',
  ],
  'title.AnswerTooLarge': [
    'The answer is too large for the batch',
    'A resposta é demasiado grande para o lote',
    'La respuesta es demasiado grande para el lote',
  ],
  'title.UnsupportedMediaType': [
    'The request body must be JSON',
    'O corpo do pedido tem de ser JSON',
    'El cuerpo de la solicitud debe ser JSON',
  ],
  'title.IdempotencyKeyReused': [
    'The Idempotency-Key was used with another request',
    'A Idempotency-Key foi usada com outro pedido',
    'La Idempotency-Key se usó con otra solicitud',
  ],
  'title.FailedDependency': [
    'A request this one depends on failed',
    'Um pedido de que este depende falhou',
    'Una solicitud de la que esta depende falló',
  ],
  'title.RateLimited': ['Too many requests', 'Demasiados pedidos', 'Demasiadas solicitudes'],
  'title.InternalError': ['Internal server error', 'Erro interno do servidor', 'Error interno del servidor'],
  'title.ServiceUnavailable': [
    'Temporarily unavailable; retry after the time given in Retry-After',
    'Temporariamente indisponível; tente de novo após o tempo indicado em Retry-After',
    'No disponible temporalmente; vuelva a intentarlo tras el tiempo indicado en Retry-After',
  ],
  // OData faults keep the parser's own (English) reason; only the frame is translated.
  odataFault: ['{reason}', '{reason}', '{reason}'],
  odataFaultAt: ['{reason} (position {position})', '{reason} (posição {position})', '{reason} (posición {position})'],
  invalidFieldsOne: ['1 field is not valid: {fields}', '1 campo não é válido: {fields}', '1 campo no es válido: {fields}'],
  invalidFieldsMany: [
    '{count} fields are not valid: {fields}',
    '{count} campos não são válidos: {fields}',
    '{count} campos no son válidos: {fields}',
  ],
} as const;
