mod flexible;
mod trained;
