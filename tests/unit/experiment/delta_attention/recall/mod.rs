mod claims;
