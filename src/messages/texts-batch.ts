/**
 * Messages of `$batch` (src/services/batch/), in en-US, pt-PT and es-ES. Each names the inner request by its `id` (or
 * its position when it has none) and the field at fault; property and header names are the protocol's own.
 */
export const BATCH_TEXTS = {
  batchRequests: [
    '{field} must be a list of 1 to {max} requests',
    '{field} tem de ser uma lista de 1 a {max} pedidos',
    '{field} debe ser una lista de 1 a {max} solicitudes',
  ],
  batchBodyProperty: [
    '{field} is not a property of a batch (send only requests)',
    '{field} não é uma propriedade de um lote (envie apenas requests)',
    '{field} no es una propiedad de un lote (envíe solo requests)',
  ],
  batchTooMany: [
    '{field} holds {count} requests: send at most {max} in one batch',
    '{field} contém {count} pedidos: envie no máximo {max} num lote',
    '{field} contiene {count} solicitudes: envíe como máximo {max} en un lote',
  ],
  batchEntry: [
    'Request {id}: {field} must be an object with id, method and url (and optionally headers, body, dependsOn, atomicityGroup)',
    'Pedido {id}: {field} tem de ser um objeto com id, method e url (e opcionalmente headers, body, dependsOn, atomicityGroup)',
    'Solicitud {id}: {field} debe ser un objeto con id, method y url (y opcionalmente headers, body, dependsOn, atomicityGroup)',
  ],
  batchUnknownProperty: [
    'Request {id}: {field} is not a property of a batch request (id, method, url, headers, body, dependsOn, atomicityGroup)',
    'Pedido {id}: {field} não é uma propriedade de um pedido do lote (id, method, url, headers, body, dependsOn, atomicityGroup)',
    'Solicitud {id}: {field} no es una propiedad de una solicitud del lote (id, method, url, headers, body, dependsOn, atomicityGroup)',
  ],
  batchName: [
    "Request {id}: {field} must be 1 to {max} letters, digits, '-' or '_'",
    "Pedido {id}: {field} tem de ter 1 a {max} letras, algarismos, '-' ou '_'",
    "Solicitud {id}: {field} debe tener de 1 a {max} letras, dígitos, '-' o '_'",
  ],
  batchDuplicateId: [
    'Request {id}: {field} is also the id of an earlier request: ids must be unique in a batch',
    'Pedido {id}: {field} é também o id de um pedido anterior: os ids têm de ser únicos num lote',
    'Solicitud {id}: {field} es también el id de una solicitud anterior: los ids deben ser únicos en un lote',
  ],
  batchMethod: [
    'Request {id}: {field} must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    'Pedido {id}: {field} tem de ser um de GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    'Solicitud {id}: {field} debe ser uno de GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  ],
  batchUrl: [
    "Request {id}: {field} must be a path relative to the batch's /api/tenantKey/orgKey/ (or an absolute one to the same tenant/org), without '.', '..', '\\' or '#'",
    "Pedido {id}: {field} tem de ser um caminho relativo ao /api/tenantKey/orgKey/ do lote (ou um absoluto para o mesmo tenant/organização), sem '.', '..', '\\' ou '#'",
    "Solicitud {id}: {field} debe ser una ruta relativa al /api/tenantKey/orgKey/ del lote (o una absoluta al mismo tenant/organización), sin '.', '..', '\\' ni '#'",
  ],
  batchOtherScope: [
    "Request {id}: {field} addresses another tenant/org: a batch only reaches its own tenant/org's operations",
    'Pedido {id}: {field} dirige-se a outro tenant/organização: um lote só alcança as operações do seu próprio tenant/organização',
    'Solicitud {id}: {field} se dirige a otro tenant/organización: un lote solo alcanza las operaciones de su propio tenant/organización',
  ],
  batchNested: [
    'Request {id}: {field} is a $batch: batches cannot be nested',
    'Pedido {id}: {field} é um $batch: os lotes não podem ser aninhados',
    'Solicitud {id}: {field} es un $batch: los lotes no se pueden anidar',
  ],
  batchHeaders: [
    'Request {id}: {field} must be an object of header names and string values (at most {max})',
    'Pedido {id}: {field} tem de ser um objeto de nomes de cabeçalho e valores de texto (no máximo {max})',
    'Solicitud {id}: {field} debe ser un objeto de nombres de cabecera y valores de texto (como máximo {max})',
  ],
  batchHeaderValue: [
    'Request {id}: {field} must be a header value (text without line breaks)',
    'Pedido {id}: {field} tem de ser um valor de cabeçalho (texto sem quebras de linha)',
    'Solicitud {id}: {field} debe ser un valor de cabecera (texto sin saltos de línea)',
  ],
  batchHeaderReserved: [
    'Request {id}: {field} is set by the batch itself (Idempotency-Key, x-d1-bookmark, Content-Length, Transfer-Encoding, Host): remove it',
    'Pedido {id}: {field} é definido pelo próprio lote (Idempotency-Key, x-d1-bookmark, Content-Length, Transfer-Encoding, Host): remova-o',
    'Solicitud {id}: {field} lo define el propio lote (Idempotency-Key, x-d1-bookmark, Content-Length, Transfer-Encoding, Host): elimínelo',
  ],
  batchAuthorization: [
    "Request {id}: {field} differs from the batch's own Authorization: every request of a batch runs with the batch's token, so this one was not run; send it in a batch of its own token",
    'Pedido {id}: {field} difere do Authorization do próprio lote: todos os pedidos de um lote correm com o token do lote, por isso este não foi executado; envie-o num lote com o seu token',
    'Solicitud {id}: {field} difiere del Authorization del propio lote: todas las solicitudes de un lote se ejecutan con el token del lote, así que esta no se ejecutó; envíela en un lote con su token',
  ],
  batchBodyMethod: [
    'Request {id}: {field} is only sent with POST, PUT and PATCH',
    'Pedido {id}: {field} só é enviado com POST, PUT e PATCH',
    'Solicitud {id}: {field} solo se envía con POST, PUT y PATCH',
  ],
  batchBodyText: [
    'Request {id}: {field} must be a string when its content-type is not JSON',
    'Pedido {id}: {field} tem de ser texto quando o seu content-type não é JSON',
    'Solicitud {id}: {field} debe ser texto cuando su content-type no es JSON',
  ],
  batchDependsOn: [
    'Request {id}: {field} must be a list of ids of earlier requests or atomicity groups',
    'Pedido {id}: {field} tem de ser uma lista de ids de pedidos anteriores ou de grupos de atomicidade',
    'Solicitud {id}: {field} debe ser una lista de ids de solicitudes anteriores o de grupos de atomicidad',
  ],
  batchUnknownDependency: [
    'Request {id}: {field} names {name}, which is not an earlier request or atomicity group of this batch',
    'Pedido {id}: {field} indica {name}, que não é um pedido anterior nem um grupo de atomicidade deste lote',
    'Solicitud {id}: {field} indica {name}, que no es una solicitud anterior ni un grupo de atomicidad de este lote',
  ],
  batchForwardReference: [
    'Request {id}: {field} refers to ${name}, which is not an earlier request of this batch',
    'Pedido {id}: {field} refere ${name}, que não é um pedido anterior deste lote',
    'Solicitud {id}: {field} hace referencia a ${name}, que no es una solicitud anterior de este lote',
  ],
  batchGroupAdjacent: [
    "Request {id}: {field} {name} must directly follow the group's other requests: a group's requests are adjacent",
    'Pedido {id}: {field} {name} tem de seguir diretamente os outros pedidos do grupo: os pedidos de um grupo são adjacentes',
    'Solicitud {id}: {field} {name} debe seguir directamente a las otras solicitudes del grupo: las solicitudes de un grupo son adyacentes',
  ],
  batchGroupIsId: [
    'Request {id}: {field} {name} is also a request id: groups and requests need different names',
    'Pedido {id}: {field} {name} é também o id de um pedido: grupos e pedidos precisam de nomes diferentes',
    'Solicitud {id}: {field} {name} es también el id de una solicitud: grupos y solicitudes necesitan nombres distintos',
  ],
  batchGroupOperation: [
    'Request {id}: {field}: this operation cannot be part of an atomic group yet (it writes outside the unit of work); nothing of the group was written: send it outside the group',
    'Pedido {id}: {field}: esta operação ainda não pode fazer parte de um grupo atómico (escreve fora da unidade de trabalho); nada do grupo foi escrito: envie-a fora do grupo',
    'Solicitud {id}: {field}: esta operación aún no puede formar parte de un grupo atómico (escribe fuera de la unidad de trabajo); no se escribió nada del grupo: envíela fuera del grupo',
  ],
  batchGroupChanged: [
    'Request {id}: {field}: a record it was planned on was changed by another request meanwhile; nothing of the group was written: send the batch again',
    'Pedido {id}: {field}: um registo em que se baseou foi alterado entretanto por outro pedido; nada do grupo foi escrito: envie o lote de novo',
    'Solicitud {id}: {field}: un registro en el que se basó fue modificado mientras tanto por otra solicitud; no se escribió nada del grupo: envíe el lote de nuevo',
  ],
  batchGroupFailed: [
    'Request {id}: {field} {name}: request {failed} of the group failed, so nothing of the group was written',
    'Pedido {id}: {field} {name}: o pedido {failed} do grupo falhou, por isso nada do grupo foi escrito',
    'Solicitud {id}: {field} {name}: la solicitud {failed} del grupo falló, así que no se escribió nada del grupo',
  ],
  batchIsolation: [
    '{field} must be snapshot (the whole batch one atomic group) or absent',
    '{field} tem de ser snapshot (o lote inteiro num grupo atómico) ou estar ausente',
    '{field} debe ser snapshot (todo el lote un grupo atómico) o estar ausente',
  ],
  batchFailedDependency: [
    'Request {id}: {field} names {name}, which failed, so this request was not run',
    'Pedido {id}: {field} indica {name}, que falhou, por isso este pedido não foi executado',
    'Solicitud {id}: {field} indica {name}, que falló, así que esta solicitud no se ejecutó',
  ],
  batchNoIdentifier: [
    'Request {id}: {field} refers to ${name}, whose answer named no record (only a create answers one)',
    'Pedido {id}: {field} refere ${name}, cuja resposta não indicou nenhum registo (só uma criação o indica)',
    'Solicitud {id}: {field} hace referencia a ${name}, cuya respuesta no indicó ningún registro (solo una creación lo indica)',
  ],
  batchAnswerTooLarge: [
    'Request {id} ran and answered {status}, but its body of more than {max} bytes is more than one answer of a batch may hold: send it alone, or ask for less',
    'O pedido {id} correu e respondeu {status}, mas o seu corpo de mais de {max} bytes é mais do que uma resposta de um lote pode ter: envie-o sozinho ou peça menos',
    'La solicitud {id} se ejecutó y respondió {status}, pero su cuerpo de más de {max} bytes es más de lo que una respuesta de un lote puede tener: envíela sola o pida menos',
  ],
  batchAnswerFull: [
    'Request {id} ran and answered {status}, but the answers of this batch already hold {max} bytes: send it in another batch',
    'O pedido {id} correu e respondeu {status}, mas as respostas deste lote já têm {max} bytes: envie-o noutro lote',
    'La solicitud {id} se ejecutó y respondió {status}, pero las respuestas de este lote ya tienen {max} bytes: envíela en otro lote',
  ],
  batchBoundary: [
    "{field} must be multipart/mixed with a boundary of 1 to {max} characters (letters, digits, and '()+_,-./:=? or spaces not at its end)",
    "{field} tem de ser multipart/mixed com um boundary de 1 a {max} caracteres (letras, algarismos e '()+_,-./:=? ou espaços não no fim)",
    "{field} debe ser multipart/mixed con un boundary de 1 a {max} caracteres (letras, dígitos y '()+_,-./:=? o espacios no al final)",
  ],
  batchMultipartFrame: [
    '{field} must be parts each opened by a line --{boundary} and the whole closed by a line --{boundary}--',
    '{field} tem de ser partes abertas cada uma por uma linha --{boundary} e o todo fechado por uma linha --{boundary}--',
    '{field} debe ser partes abiertas cada una por una línea --{boundary} y el todo cerrado por una línea --{boundary}--',
  ],
  batchPartHeaders: [
    '{field} must be at most {max} header lines of the form Name: value, ended by an empty line',
    '{field} tem de ser no máximo {max} linhas de cabeçalho da forma Nome: valor, terminadas por uma linha vazia',
    '{field} debe ser como máximo {max} líneas de cabecera de la forma Nombre: valor, terminadas por una línea vacía',
  ],
  batchPartType: [
    '{field} must be application/http (Content-Transfer-Encoding binary) or, outside a change set, a multipart/mixed change set',
    '{field} tem de ser application/http (Content-Transfer-Encoding binary) ou, fora de um change set, um change set multipart/mixed',
    '{field} debe ser application/http (Content-Transfer-Encoding binary) o, fuera de un change set, un change set multipart/mixed',
  ],
  batchChangesetEmpty: [
    '{field} is a change set without requests: send at least one, or leave it out',
    '{field} é um change set sem pedidos: envie pelo menos um ou retire-o',
    '{field} es un change set sin solicitudes: envíe al menos una o quítelo',
  ],
  batchRequestLine: [
    '{field} must start with a request line: METHOD url HTTP/1.1',
    '{field} tem de começar por uma linha de pedido: MÉTODO url HTTP/1.1',
    '{field} debe empezar por una línea de solicitud: MÉTODO url HTTP/1.1',
  ],
  batchPartJson: [
    'Request {id}: {field} is not valid JSON (or is nested deeper than {max} levels) although its content-type is JSON',
    'Pedido {id}: {field} não é JSON válido (ou está aninhado a mais de {max} níveis) embora o seu content-type seja JSON',
    'Solicitud {id}: {field} no es JSON válido (o está anidado a más de {max} niveles) aunque su content-type es JSON',
  ],
} as const;
