mod claims;
mod permuted;
mod readings;
mod sensitivity;
