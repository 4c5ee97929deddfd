/** Messages of the change feed and webhook subscriptions, in en-US, pt-PT and es-ES. */
export const EVENT_TEXTS = {
  cursorInvalid: [
    '{field} is not a cursor of this change feed: send the cursor of an earlier answer',
    '{field} não é um cursor deste feed de alterações: envie o cursor de uma resposta anterior',
    '{field} no es un cursor de este feed de cambios: envíe el cursor de una respuesta anterior',
  ],
  cursorAhead: [
    '{field} is ahead of this change feed (a cursor of another tenant/org?): send a cursor this feed answered',
    '{field} está à frente deste feed de alterações (um cursor de outro tenant/org?): envie um cursor que este feed respondeu',
    '{field} está por delante de este feed de cambios (¿un cursor de otro tenant/org?): envíe un cursor que este feed respondió',
  ],
  cursorExpired: [
    "{field} is older than the change feed keeps ({days} days): resynchronize with each resource's /odata list, then read the feed without {field}",
    '{field} é mais antigo do que o feed de alterações guarda ({days} dias): ressincronize com a lista /odata de cada recurso e leia o feed sem {field}',
    '{field} es más antiguo de lo que el feed de cambios guarda ({days} días): resincronice con la lista /odata de cada recurso y lea el feed sin {field}',
  ],
  deltaExpired: [
    '{field} is older than the change feed keeps ({days} days): start over with a read of the entity set with Prefer: odata.track-changes, then follow its new delta link',
    '{field} é mais antigo do que o feed de alterações guarda ({days} dias): recomece com uma leitura do conjunto de entidades com Prefer: odata.track-changes e siga o novo delta link',
    '{field} es más antiguo de lo que el feed de cambios guarda ({days} días): empiece de nuevo con una lectura del conjunto de entidades con Prefer: odata.track-changes y siga el nuevo delta link',
  ],
  resourcePrefix: [
    '{field} must be a service prefix such as operations/emailTemplates or operations, or *',
    '{field} tem de ser um prefixo de serviço como operations/emailTemplates ou operations, ou *',
    '{field} debe ser un prefijo de servicio como operations/emailTemplates u operations, o *',
  ],
  urlNotAbsolute: [
    '{field} must be an absolute URL, such as https://hooks.example.com/erp',
    '{field} tem de ser um URL absoluto, como https://hooks.example.com/erp',
    '{field} debe ser una URL absoluta, como https://hooks.example.com/erp',
  ],
  urlCredentials: [
    '{field} must not carry a user name or password',
    '{field} não pode ter nome de utilizador nem palavra-passe',
    '{field} no puede llevar usuario ni contraseña',
  ],
  urlFragment: ['{field} must not have a #fragment', '{field} não pode ter um #fragmento', '{field} no puede tener un #fragmento'],
  urlHttpsOnly: ['{field} must be an https:// URL', '{field} tem de ser um URL https://', '{field} debe ser una URL https://'],
  urlHttpsOrLoopback: [
    '{field} must be an https:// URL (or http:// to 127.0.0.1 while the development flag is on)',
    '{field} tem de ser um URL https:// (ou http:// para 127.0.0.1 com a opção de desenvolvimento ativa)',
    '{field} debe ser una URL https:// (o http:// a 127.0.0.1 con la opción de desarrollo activa)',
  ],
  urlPrivateHost: [
    '{field} must name a public host, not a private, loopback or link-local address',
    '{field} tem de indicar um anfitrião público, não um endereço privado, de loopback ou link-local',
    '{field} debe indicar un host público, no una dirección privada, de loopback o de enlace local',
  ],
  urlResolvesPrivate: [
    '{field}: {host} resolves to {address}, which is not a public address (private, loopback, link-local, shared or reserved): notifications go to public hosts only',
    '{field}: {host} resolve para {address}, que não é um endereço público (privado, de loopback, link-local, partilhado ou reservado): as notificações só vão para anfitriões públicos',
    '{field}: {host} se resuelve a {address}, que no es una dirección pública (privada, de loopback, de enlace local, compartida o reservada): las notificaciones solo van a hosts públicos',
  ],
  urlUnresolved: [
    '{field}: the host {host} could not be resolved ({reason}); notifications go only to hosts whose addresses are known to be public: check the name, or try again later',
    '{field}: não foi possível resolver o anfitrião {host} ({reason}); as notificações só vão para anfitriões cujos endereços se sabe serem públicos: verifique o nome ou tente mais tarde',
    '{field}: no se pudo resolver el host {host} ({reason}); las notificaciones solo van a hosts cuyas direcciones se sabe que son públicas: compruebe el nombre o inténtelo más tarde',
  ],
  handshakeUnreachable: [
    'The validation request to {field} failed ({reason}): the receiver must answer within 10 s',
    'O pedido de validação a {field} falhou ({reason}): o recetor tem de responder em 10 s',
    'La solicitud de validación a {field} falló ({reason}): el receptor debe responder en 10 s',
  ],
  handshakeStatus: [
    'The validation request to {field} was answered {status}: the receiver must answer 200 with the validationToken as body',
    'O pedido de validação a {field} foi respondido com {status}: o recetor tem de responder 200 com o validationToken no corpo',
    'La solicitud de validación a {field} se respondió con {status}: el receptor debe responder 200 con el validationToken como cuerpo',
  ],
  handshakeBody: [
    'The validation request to {field} was not answered with the validationToken as body',
    'O pedido de validação a {field} não foi respondido com o validationToken no corpo',
    'La solicitud de validación a {field} no se respondió con el validationToken como cuerpo',
  ],
} as const;
