import { ApiProperty } from '@nestjs/swagger';
import { ACCESS_TOKEN_ALGORITHM } from '@platform/auth';

/** One RSA public key (RFC 7517), as verifiers look it up by `kid`. */
export class PublicJwkDto {
  @ApiProperty({ enum: ['RSA'] }) kty!: 'RSA';
  @ApiProperty({
    description: 'RFC 7638 thumbprint of the key',
    example: 'mK9J0q3Yc1mS0v3tQhLrR2GdKx0b6B3b1mYfQmV1c2E',
  })
  kid!: string;
  @ApiProperty({ enum: ['sig'] }) use!: 'sig';
  @ApiProperty({ enum: [ACCESS_TOKEN_ALGORITHM] }) alg!: typeof ACCESS_TOKEN_ALGORITHM;
  @ApiProperty({ description: 'Modulus, base64url' }) n!: string;
  @ApiProperty({ description: 'Exponent, base64url', example: 'AQAB' }) e!: string;
}

/** JSON Web Key Set (RFC 7517 §5): the current key and the retired ones still accepted. */
export class JwksDto {
  @ApiProperty({ type: [PublicJwkDto] }) keys!: PublicJwkDto[];
}
