import { ApiProperty } from '@nestjs/swagger';

/** RFC 8414 §2: what a standard OAuth library needs to configure itself. */
export class AuthorizationServerMetadataDto {
  @ApiProperty({
    description:
      'The issuer identifier: JWT_ISSUER, exactly the `iss` of the access tokens (RFC 8414 §2, RFC 9068 §2.2)',
    example: 'https://api.agency.example',
  })
  issuer!: string;

  @ApiProperty({
    example: 'https://api.agency.example/v1/oauth/authorize',
    description: 'The sign-in page of the authorization-code flow (browser apps, PKCE S256)',
  })
  authorization_endpoint!: string;

  @ApiProperty({ example: 'https://api.agency.example/v1/oauth/token' })
  token_endpoint!: string;

  @ApiProperty({ example: 'https://api.agency.example/v1/.well-known/jwks.json' })
  jwks_uri!: string;

  @ApiProperty({ example: 'https://api.agency.example/v1/oauth/revoke' })
  revocation_endpoint!: string;

  @ApiProperty({ example: ['client_credentials', 'refresh_token', 'password', 'authorization_code'] })
  grant_types_supported!: string[];

  @ApiProperty({
    example: ['client_secret_basic', 'client_secret_post', 'none'],
    description: '`none`: browser apps (public clients) send only their client_id',
  })
  token_endpoint_auth_methods_supported!: string[];

  @ApiProperty({ example: ['client_secret_basic', 'client_secret_post', 'none'] })
  revocation_endpoint_auth_methods_supported!: string[];

  @ApiProperty({ example: ['code'] })
  response_types_supported!: string[];

  @ApiProperty({ example: ['S256'], description: 'PKCE: S256 only' })
  code_challenge_methods_supported!: string[];

  @ApiProperty({ example: true, description: 'RFC 9207: authorization responses carry `iss`' })
  authorization_response_iss_parameter_supported!: boolean;

  @ApiProperty({ example: 'https://api.agency.example/docs' })
  service_documentation!: string;
}
