import { ApiProperty } from '@nestjs/swagger';

/** RFC 8414 §2: what a standard OAuth library needs to configure itself. */
export class AuthorizationServerMetadataDto {
  @ApiProperty({
    description:
      'The issuer identifier: JWT_ISSUER, exactly the `iss` of the access tokens (RFC 8414 §2, RFC 9068 §2.2)',
    example: 'https://api.agency.example',
  })
  issuer!: string;

  @ApiProperty({ example: 'https://api.agency.example/v1/oauth/token' })
  token_endpoint!: string;

  @ApiProperty({ example: 'https://api.agency.example/v1/.well-known/jwks.json' })
  jwks_uri!: string;

  @ApiProperty({ example: 'https://api.agency.example/v1/oauth/revoke' })
  revocation_endpoint!: string;

  @ApiProperty({ example: ['client_credentials', 'refresh_token', 'password'] })
  grant_types_supported!: string[];

  @ApiProperty({ example: ['client_secret_basic', 'client_secret_post'] })
  token_endpoint_auth_methods_supported!: string[];

  @ApiProperty({ example: ['client_secret_basic', 'client_secret_post'] })
  revocation_endpoint_auth_methods_supported!: string[];

  @ApiProperty({
    example: [],
    description: 'Required by RFC 8414; empty until the authorization-code flow exists',
  })
  response_types_supported!: string[];

  @ApiProperty({ example: 'https://api.agency.example/docs' })
  service_documentation!: string;
}
