mod repair;
